import FoundationEssentials

/// One JSON value of a recording line, read as Foundation's `JSONSerialization` would give
/// it (`String`, `Int` or `Double`, `Bool`, `[Any]`, `[String: Any]`, nil for null), with
/// FoundationEssentials' decoder: the server links no more of Foundation than that.
struct RecordingJSON: Decodable {
    let value: Any?

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { value = nil }
        else if let bool = try? container.decode(Bool.self) { value = bool }
        else if let int = try? container.decode(Int.self) { value = int }
        else if let double = try? container.decode(Double.self) { value = double }
        else if let string = try? container.decode(String.self) { value = string }
        else if let array = try? container.decode([RecordingJSON].self) { value = array.map { $0.value as Any } }
        else { value = try container.decode([String: RecordingJSON].self).mapValues { $0.value as Any } }
    }

    /// The line's object, or nil when the line is not a JSON object.
    static func object(_ line: String) -> [String: Any]? {
        (try? JSONDecoder().decode(RecordingJSON.self, from: Data(line.utf8)))?.value as? [String: Any]
    }
}
