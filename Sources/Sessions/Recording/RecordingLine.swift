/// The lines of a session's recording (docs/RECORDING.md): JSON lines, a header first, then
/// one line per event, each with `t`, microseconds since the session opened (an output line
/// without one is at the time of the line before it). A line's raw JSON
/// value (`value`, `error`) is always its last field, so a reader takes it as the text it was.
enum RecordingLine {
    /// The format's version, in the header's `rxliveRecording`: 2 lets an output line leave out
    /// a `t` equal to the line before it's.
    static let version = 2
    /// The versions a reader takes: a version 1 file is a version 2 file with every `t` written.
    static let readableVersions = 1...2
    /// How a recording's file name ends.
    static let fileExtension = ".rxlive.jsonl"

    /// The first line: the format, the view model and its declaration as the session saw it.
    static func header(viewModel: String, session: String, started: String, inputs: [WireInputs.Declaration],
                       outputs: [String]) -> String {
        var line = "{\"rxliveRecording\":\(version),\"viewModel\":"
        line.appendJSONString(viewModel)
        line += ",\"session\":"
        line.appendJSONString(session)
        line += ",\"started\":"
        line.appendJSONString(started)
        line += ",\"inputs\":["
        for (index, input) in inputs.enumerated() {
            if index > 0 { line += "," }
            line += "{\"name\":"
            line.appendJSONString(input.name)
            line += ",\"kind\":\"\(input.kind.rawValue)\"\(input.secret ? ",\"secret\":true" : "")}"
        }
        line += "],\"outputs\":["
        for (index, output) in outputs.enumerated() {
            if index > 0 { line += "," }
            line.appendJSONString(output)
        }
        return line + "]}\n"
    }

    /// An event line: `{"t":…,"<key>":"<name>"` and then `fields`, each `,"name":value`.
    static func event(_ time: UInt64, _ key: String, _ name: String, _ fields: String = "") -> String {
        var line = ""
        begin(&line, time, key, name)
        return line + fields + "}\n"
    }

    /// Appends the start of an event line, `{"t":…,"<key>":"<name>"`, to `line`.
    static func begin(_ line: inout String, _ time: UInt64, _ key: String, _ name: String) {
        line += "{\"t\":"
        line += time.description
        line += ",\""
        line += key
        line += "\":"
        line.appendJSONString(name)
    }

    /// `,"<key>":"<text>"`: a string field.
    static func string(_ key: String, _ text: String) -> String {
        var field = ",\"\(key)\":"
        field.appendJSONString(text)
        return field
    }
}
