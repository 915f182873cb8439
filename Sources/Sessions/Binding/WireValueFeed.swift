import FoundationEssentials
import Glibc
import RxSwift

/// The input subject of a value input, and how a message's value becomes one of its
/// elements: decoded from JSON into the input's `Decodable` type.
class WireValueFeed {
    /// Decodes `value`, calls `accepted` and sends the value on; a value that does not
    /// decode is refused with the input's name and the type it expected, and nothing is sent.
    func feed(_ value: ClientMessage.Value, input name: String, accepted: () -> Void) -> ProtocolError? {
        fatalError("subclass responsibility")
    }
}

/// The feed of an input of type `Value`.
final class TypedWireValueFeed<Value: Decodable>: WireValueFeed {
    let subject = InlinePublishSubject<Value>()

    override func feed(_ value: ClientMessage.Value, input name: String, accepted: () -> Void) -> ProtocolError? {
        let decoded: Value
        switch WireJSON.decodeInput(Value.self, from: value, input: name) {
        case .success(let value): decoded = value
        case .failure(let refusal): return refusal
        }
        accepted()
        subject.onNext(decoded)
        return nil
    }
}

/// The feed of an input whose messages carry a `Wire` value that the app's `decode` turns
/// into the view model's `Value`; what `decode` throws is refused like JSON that does not decode.
final class MappedWireValueFeed<Wire: Decodable, Value>: WireValueFeed {
    let subject = InlinePublishSubject<Value>()
    private let decode: (Wire) throws -> Value

    init(decode: @escaping (Wire) throws -> Value) {
        self.decode = decode
    }

    override func feed(_ value: ClientMessage.Value, input name: String, accepted: () -> Void) -> ProtocolError? {
        let mapped: Value
        switch WireJSON.decodeInput(Wire.self, from: value, input: name) {
        case .success(let wire):
            do {
                mapped = try decode(wire)
            } catch {
                return ProtocolError(.badValue, "\"\(name)\" refuses this value: \(String(describing: error).prefix(120))")
            }
        case .failure(let refusal): return refusal
        }
        accepted()
        subject.onNext(mapped)
        return nil
    }
}

/// The JSON of value inputs and `Encodable` outputs: Swift's `Codable` shapes, with dates
/// as ISO 8601 strings (PROTOCOL.md, "Values").
enum WireJSON {
    /// `value` as a `Value`: a JSON string is decoded as the string it is (a `String`
    /// input, an enum of string raw values), any other JSON from its text.
    static func decode<Value: Decodable>(_ type: Value.Type, from value: ClientMessage.Value) throws -> Value {
        switch value {
        case .string(let string):
            if let string = string as? Value { return string }
            return try decoder().decode(Value.self, from: Data(jsonString(string).utf8))
        case .json(let text):
            return try decoder().decode(Value.self, from: Data(text.utf8))
        case .absent:
            throw DecodingError.valueNotFound(Value.self, .init(codingPath: [], debugDescription: "no value"))
        }
    }

    /// `value` as the `Value` of input `name`, or the refusal naming the input and its type.
    static func decodeInput<Value: Decodable>(_ type: Value.Type, from value: ClientMessage.Value, input name: String)
        -> Result<Value, ProtocolError> {
        do {
            return .success(try decode(Value.self, from: value))
        } catch {
            return .failure(ProtocolError(.badValue, "\"\(name)\" expects \(typeName(Value.self)): \(describe(error))"))
        }
    }

    /// `value` as JSON text, in the shape `decode` reads back.
    static func encode<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]  // the same value, the same text
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The type's name as a person reads it: `Int`, `String?`, `[Tag]`, `Address`.
    static func typeName(_ type: Any.Type) -> String {
        var name = String(describing: type)
        for (prefix, suffix) in [("Optional<", "?"), ("Array<", "")] where name.hasPrefix(prefix) && name.hasSuffix(">") {
            let inner = String(name.dropFirst(prefix.count).dropLast())
            name = suffix.isEmpty ? "[\(inner)]" : inner + suffix
        }
        return name
    }

    /// One line on why a value did not decode, naming where in it.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not valid JSON for it" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "expected \(typeName(type))\(path(context))"
        case .valueNotFound(let type, let context):
            return "missing \(typeName(type))\(path(context))"
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\"\(path(context))"
        case .dataCorrupted(let context):
            return "\(context.debugDescription.prefix(120))\(path(context))"
        @unknown default:
            return "not valid JSON for it"
        }
    }

    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    private static func jsonString(_ string: String) -> String {
        var json = ""
        json.appendJSONString(string)
        return json
    }
}
