import Foundation
import FuzzSupport
@_spi(Protocol) import Sessions

/// The client-message JSON reader.
///
/// Input: the message's bytes, as a WebSocket text message carries them.
///
/// Invariants, for valid UTF-8 (the WebSocket layer lets nothing else through):
/// - a message the reader accepts is JSON to Foundation's `JSONSerialization`: an object
///   whose `"input"` is the same string, whose `"value"` is absent, the same string, or a
///   non-string whose kept text is itself JSON;
/// - reading is deterministic, and reading the `String` gives what reading the bytes gives;
/// - for any bytes, an input table's `decode(utf8:)` (with its plain-message shortcut)
///   gives what the full reader and `resolve` give.
///
/// With `FUZZ_ACCEPTED_DIR` set, every accepted message is also written there, so a replay
/// of a corpus can hand them to a second oracle (Python's `json`, Tests/EndToEnd/test_fuzz_corpus.py).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let result = ClientMessageReader.read(utf8: input.bytes)
    invariant(fuzzedInputs.decode(utf8: input.bytes) == result.flatMap(fuzzedInputs.resolve),
              "the plain-message shortcut differs from the full reader")
    guard String(validating: input.bytes, as: UTF8.self) != nil else { return 0 }
    let text = String(decoding: input.bytes, as: UTF8.self)
    invariant(ClientMessageReader.read(text) == result, "reading the String differs from reading the bytes")
    guard case .success(let message) = result else { return 0 }

    let bytes = Data(buffer: input.bytes)
    let parsed = try? JSONSerialization.jsonObject(with: bytes)
    guard let object = parsed as? [String: Any] else {
        // JSONSerialization refuses numbers beyond Double's range, which RFC 8259's grammar
        // (and Python's json) accept; the reader keeps them as text for the value input to
        // refuse (`bad_value`). Anything else it refuses is a finding.
        invariant(parsed == nil && hasNumberBeyondDouble(Array(input.bytes)),
                  "accepted, but not a JSON object to JSONSerialization: \(text.debugDescription)")
        AcceptedMessages.write(bytes, message)
        return 0
    }
    invariant(object["input"] as? String == message.input, "\"input\" differs from JSONSerialization's")
    switch message.value {
    case .absent:
        invariant(object["value"] == nil, "a value JSONSerialization sees was missed")
    case .string(let string):
        invariant(object["value"] as? String == string, "the string value differs from JSONSerialization's")
    case .json(let json):
        invariant(object["value"] != nil && !(object["value"] is String), "a JSON value that is not there or a string")
        invariant((try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) != nil
                  || hasNumberBeyondDouble(Array(json.utf8)),
                  "the kept value text is not JSON: \(json.debugDescription)")
    }
    invariant(object.count == (message.value == .absent ? 1 : 2), "keys besides input and value")
    AcceptedMessages.write(bytes, message)
    return 0
}

/// Inputs of every kind, named as the corpus and dictionary name them (one name with a
/// character that has a decomposed form, `é`).
let fuzzedInputs = InputTable([
    (name: "left", kind: .text), (name: "login", kind: .tap), (name: "x", kind: .value),
    (name: "", kind: .text), (name: "caf\u{E9}", kind: .text),
])

/// True when a number outside the strings of `json` overflows a Double (e.g. `1e400`).
func hasNumberBeyondDouble(_ json: [UInt8]) -> Bool {
    var inString = false
    var escaped = false
    var number: [UInt8] = []
    for byte in json + [0x20] {
        if inString {
            if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
        } else if byte == 0x22 {
            inString = true
        } else if (byte >= 0x30 && byte <= 0x39) || [0x2B, 0x2D, 0x2E, 0x45, 0x65].contains(byte) {
            number.append(byte)
            continue
        }
        if !number.isEmpty {
            if let value = Double(String(decoding: number, as: UTF8.self)), value.isInfinite { return true }
            number = []
        }
    }
    return false
}

/// Accepted messages written to `FUZZ_ACCEPTED_DIR`, for another oracle: `<name>.json` is
/// the message, `<name>.input` the input name read, and `<name>.string` or `<name>.value`
/// the string value or the JSON text of another value.
enum AcceptedMessages {
    static let directory = ProcessInfo.processInfo.environment["FUZZ_ACCEPTED_DIR"].map { URL(fileURLWithPath: $0) }

    static func write(_ bytes: Data, _ message: ClientMessage) {
        guard let directory else { return }
        var hash: UInt64 = 0xcbf29ce484222325   // FNV-1a: a stable name per message
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let base = directory.appendingPathComponent(String(hash, radix: 16))
        try? bytes.write(to: base.appendingPathExtension("json"))
        try? Data(message.input.utf8).write(to: base.appendingPathExtension("input"))
        switch message.value {
        case .absent: break
        case .string(let string): try? Data(string.utf8).write(to: base.appendingPathExtension("string"))
        case .json(let json): try? Data(json.utf8).write(to: base.appendingPathExtension("value"))
        }
    }
}
