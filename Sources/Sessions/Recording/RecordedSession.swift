import FoundationEssentials
import Glibc

/// A session's recording read back (the format of docs/RECORDING.md): the header, then its
/// events in the order they were written.
public struct RecordedSession: Sendable {
    /// One declared input as the session saw it.
    public struct Input: Sendable, Equatable {
        public let name: String
        public let kind: InputKind
        public let secret: Bool
    }

    /// One recorded event; `time` is microseconds since the session opened. `json` values are
    /// the JSON text as written.
    public enum Event: Sendable, Equatable {
        /// A client's input message: its value as JSON (nil for a tap), or a secret's length.
        case input(time: UInt64, name: String, json: String?, secretLength: Int?)
        /// An output element (`json`), or the output's failure (`error`).
        case output(time: UInt64, name: String, json: String?, error: String?)
        /// Call `number` (from 0) of `service` began.
        case call(time: UInt64, service: String, number: Int)
        /// An answer to that call: an element, a failure, or its end.
        case answer(time: UInt64, service: String, number: Int, answer: RecordedAnswer, synchronous: Bool)

        public var time: UInt64 {
            switch self {
            case .input(let time, _, _, _), .output(let time, _, _, _), .call(let time, _, _), .answer(let time, _, _, _, _): time
            }
        }
    }

    public let viewModel: String
    public let session: String
    public let inputs: [Input]
    public let outputs: [String]
    public let events: [Event]
    /// Whether the recording stopped at its size bound before the session ended.
    public let truncated: Bool
    /// When the session closed (microseconds since it opened); nil when the file has no end.
    public let duration: UInt64?

    /// Reads a recording's text.
    /// - Throws: `RecordingError` naming the line that cannot be read.
    public init(jsonLines text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).makeIterator()
        guard let first = lines.next(), let header = Self.object(first),
              let version = header["rxliveRecording"] as? Int else {
            throw RecordingError(description: "not an RxLive recording (its first line has no \"rxliveRecording\")")
        }
        guard RecordingLine.readableVersions.contains(version) else {
            throw RecordingError(description: "recording format \(version); this build reads \(RecordingLine.readableVersions.lowerBound) to \(RecordingLine.readableVersions.upperBound)")
        }
        guard let viewModel = header["viewModel"] as? String, let inputs = header["inputs"] as? [[String: Any]],
              let outputs = header["outputs"] as? [String] else {
            throw RecordingError(description: "line 1: the header needs viewModel, inputs and outputs")
        }
        self.viewModel = viewModel
        session = header["session"] as? String ?? ""
        self.inputs = try inputs.map { input in
            guard let name = input["name"] as? String, let kind = (input["kind"] as? String).flatMap(InputKind.init) else {
                throw RecordingError(description: "line 1: an input needs a name and a kind")
            }
            return Input(name: name, kind: kind, secret: input["secret"] as? Bool ?? false)
        }
        self.outputs = outputs
        var events: [Event] = []
        var truncated = false
        var duration: UInt64?
        var number = 1
        while let line = lines.next() {
            number += 1
            guard let fields = Self.object(line) else { throw RecordingError(description: "line \(number) is not a JSON object") }
            if fields["truncated"] != nil { truncated = true; continue }
            // A line without `t` (from version 2) is at the time of the line before it.
            let time = (fields["t"] as? Int).flatMap(UInt64.init(exactly:)) ?? events.last?.time ?? 0
            if let name = fields["input"] as? String {
                events.append(.input(time: time, name: name, json: Self.rawTail(line, "value"), secretLength: fields["secret"] as? Int))
            } else if let name = fields["output"] as? String {
                events.append(.output(time: time, name: name, json: Self.rawTail(line, "value"), error: fields["error"] as? String))
            } else if let service = fields["call"] as? String, let call = fields["n"] as? Int {
                events.append(.call(time: time, service: service, number: call))
            } else if let service = fields["answer"] as? String, let call = fields["n"] as? Int {
                let answer: RecordedAnswer
                if let json = Self.rawTail(line, "value") { answer = .element(json) }
                else if let json = Self.rawTail(line, "failure") { answer = .failure(json) }
                else if let error = fields["error"] as? String { answer = .error(error) }
                else { answer = .completed }
                events.append(.answer(time: time, service: service, number: call, answer: answer, synchronous: fields["sync"] as? Bool ?? false))
            } else if fields["end"] != nil {
                duration = time
            } else {
                throw RecordingError(description: "line \(number): not an event this build knows")
            }
        }
        self.events = events
        self.truncated = truncated
        self.duration = duration
    }

    /// Reads the file at `path`.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RecordingError(description: "cannot read \(path)")
        }
        try self.init(jsonLines: String(decoding: data, as: UTF8.self))
    }

    private static func object(_ line: String) -> [String: Any]? {
        RecordingJSON.object(line)
    }

    /// The raw JSON of `key`, written as the line's last field (`,"key":RAW}`): a name's
    /// quotes are escaped, so the first `,"key":` is the field's.
    static func rawTail(_ line: String, _ key: String) -> String? {
        guard let range = line.firstRange(of: ",\"\(key)\":"), line.hasSuffix("}") else { return nil }
        return String(line[range.upperBound..<line.index(before: line.endIndex)])
    }
}

/// A service's recorded answer to one call.
public enum RecordedAnswer: Sendable, Equatable {
    /// An element, as JSON.
    case element(String)
    /// A failure of the service's declared type, as JSON.
    case failure(String)
    /// Any other error, described.
    case error(String)
    /// The call's answers ended.
    case completed
}
