/// Reads one client message: a strict, bounded JSON reader that accepts exactly the
/// protocol's shapes, `{"input":"<name>","value":<JSON value>}` and `{"input":"<name>"}`.
///
/// It parses the UTF-8 bytes of the message in one pass without recursion and without
/// Foundation; input strings without escapes are copied straight from the bytes.
///
/// Every refusal here is `bad_json`; checking the name and the value against a view
/// model's inputs (`unknown_input`, `bad_value`) is the next step, `InputTable`.
///
/// Decisions where RFC 8259 leaves room, chosen to be strict but unsurprising:
/// - The root must be an object (RFC 8259 whitespace around it is fine, nothing else).
/// - `"input"` is required and must be a string.
/// - Any key other than `"input"` and `"value"` is refused: the protocol is closed, and
///   ignoring keys would hide client mistakes such as `"valeu"`.
/// - A duplicate key is refused: RFC 8259 leaves its meaning open and parsers disagree
///   on whether the first or the last one wins.
/// - Keys are compared after escapes are decoded, so `"\u0069nput"` is `"input"`.
/// - A `"value"` that is not a string is parsed completely and kept as its JSON text,
///   for a value input to decode; a text input or a tap refuses it later (`bad_value`),
///   while broken JSON is refused here (`bad_json`).
/// - Nesting deeper than `maxDepth` containers, the root included, is refused.
/// - Escapes are the RFC's; a `\u` high surrogate must be followed by a `\u` low
///   surrogate, and a lone surrogate of either kind is refused. `\u0000` is accepted.
/// - Raw control characters (below U+0020) inside strings are refused.
/// - Size is bounded by the WebSocket layer (64 KiB per message); the reader is linear.
@_spi(Protocol) public enum ClientMessageReader {
    /// The deepest nesting of arrays and objects accepted, the root object included.
    static let maxDepth = 32

    /// Parses `text` as one client message.
    public static func read(_ text: String) -> Result<ClientMessage, ProtocolError> {
        var text = text
        return text.withUTF8 { read(utf8: $0) }
    }

    /// Parses UTF-8 bytes as one client message. Invalid UTF-8 inside strings is
    /// repaired with U+FFFD rather than trusted (the WebSocket layer refuses it anyway).
    public static func read(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<ClientMessage, ProtocolError> {
        Result { () throws(ProtocolError) -> ClientMessage in try message(utf8: bytes) }
    }

    /// `read(utf8:)` for the session's path: a typed throw, where a `Result` went through
    /// its generic value witnesses on every message.
    static func message(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> ClientMessage {
        var scanner = JSONScanner(bytes: bytes, maxDepth: maxDepth)
        return try scanner.readMessage()
    }
}

/// The bytes of the JSON grammar this reader needs.
enum Byte {
    static let quote: UInt8 = 0x22          // "
    static let backslash: UInt8 = 0x5C      // \
    static let slash: UInt8 = 0x2F          // /
    static let openBrace: UInt8 = 0x7B      // {
    static let closeBrace: UInt8 = 0x7D     // }
    static let openBracket: UInt8 = 0x5B    // [
    static let closeBracket: UInt8 = 0x5D   // ]
    static let colon: UInt8 = 0x3A          // :
    static let comma: UInt8 = 0x2C          // ,
    static let minus: UInt8 = 0x2D          // -
    static let plus: UInt8 = 0x2B           // +
    static let dot: UInt8 = 0x2E            // .
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let lowerE: UInt8 = 0x65
    static let upperE: UInt8 = 0x45
    static let lowerU: UInt8 = 0x75
}

/// A JSON string as scanned: either a range of the message's bytes (no escapes, the
/// common case) or the decoded bytes.
enum ScannedString {
    case raw(Range<Int>)
    case decoded([UInt8])
}

/// Which member of a message a key names.
enum MessageKey {
    case input, value, other
}

/// A cursor over the message's bytes. Every method that consumes input throws
/// `bad_json` on the first byte that breaks the grammar.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: the message

    mutating func readMessage() throws(ProtocolError) -> ClientMessage {
        skipWhitespace()
        guard peek == Byte.openBrace else {
            throw ProtocolError(.badJSON, "a message must be one JSON object")
        }
        index += 1
        var input: String?
        var value: ClientMessage.Value?
        skipWhitespace()
        if peek == Byte.closeBrace {
            index += 1
        } else {
            members: while true {
                skipWhitespace()
                guard peek == Byte.quote else { throw malformed("expected a key string") }
                let key = try scanString(keep: true)
                try skipColon()
                switch classify(key) {
                case .input:
                    guard input == nil else { throw ProtocolError(.badJSON, "duplicate key \"input\"") }
                    guard peek == Byte.quote else { throw ProtocolError(.badJSON, "\"input\" must be a string") }
                    input = makeString(try scanString(keep: true))
                case .value:
                    guard value == nil else { throw ProtocolError(.badJSON, "duplicate key \"value\"") }
                    if peek == Byte.quote {
                        value = .string(makeString(try scanString(keep: true)))
                    } else {
                        let start = index
                        try skipValue(parentDepth: 1)
                        value = .json(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                    }
                case .other:
                    throw ProtocolError(.badJSON, "unexpected key \(quotedPrefix(makeString(key))); a message has only \"input\" and \"value\"")
                }
                skipWhitespace()
                switch peek {
                case Byte.comma: index += 1
                case Byte.closeBrace: index += 1; break members
                default: throw malformed("expected ',' or '}'")
                }
            }
        }
        skipWhitespace()
        guard index == bytes.count else {
            throw ProtocolError(.badJSON, "unexpected characters after the JSON object")
        }
        guard let input else { throw ProtocolError(.badJSON, "a message needs an \"input\" string") }
        return ClientMessage(input: input, value: value ?? .absent)
    }

    private func classify(_ key: ScannedString) -> MessageKey {
        switch key {
        case .raw(let range):
            return Self.classify(UnsafeBufferPointer(rebasing: bytes[range]))
        case .decoded(let decoded):
            return decoded.withUnsafeBufferPointer(Self.classify)
        }
    }

    /// "input" or "value" (both five ASCII letters), compared byte by byte.
    private static func classify(_ key: UnsafeBufferPointer<UInt8>) -> MessageKey {
        guard key.count == 5 else { return .other }
        switch (key[0], key[1], key[2], key[3], key[4]) {
        case (0x69, 0x6E, 0x70, 0x75, 0x74): return .input  // i n p u t
        case (0x76, 0x61, 0x6C, 0x75, 0x65): return .value  // v a l u e
        default: return .other
        }
    }

    private func makeString(_ scanned: ScannedString) -> String {
        switch scanned {
        case .raw(let range): String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .decoded(let decoded): String(decoding: decoded, as: UTF8.self)
        }
    }

    // MARK: any value, without recursion

    /// Skips one complete JSON value that sits inside `parentDepth` open containers.
    /// Open containers are tracked in a bit stack (1 = array), so depth costs no memory.
    private mutating func skipValue(parentDepth: Int) throws(ProtocolError) {
        var arrayBits: UInt64 = 0
        var level = 0
        nextValue: while true {
            skipWhitespace()
            switch peek {
            case Byte.openBrace, Byte.openBracket:
                let isArray = peek == Byte.openBracket
                guard parentDepth + level + 1 <= maxDepth else {
                    throw ProtocolError(.badJSON, "JSON nested deeper than \(maxDepth) levels")
                }
                index += 1
                if isArray { arrayBits |= 1 << level } else { arrayBits &= ~(1 << level) }
                level += 1
                skipWhitespace()
                if peek == (isArray ? Byte.closeBracket : Byte.closeBrace) {
                    index += 1
                    level -= 1
                } else if isArray {
                    continue nextValue
                } else {
                    try skipKeyAndColon()
                    continue nextValue
                }
            case Byte.quote:
                _ = try scanString(keep: false)
            case UInt8(ascii: "t"):
                try skipLiteral("true")
            case UInt8(ascii: "f"):
                try skipLiteral("false")
            case UInt8(ascii: "n"):
                try skipLiteral("null")
            case Byte.minus, Byte.zero...Byte.nine:
                try skipNumber()
            default:
                throw malformed("expected a value")
            }
            // A value is complete: close finished containers or go on to the next element.
            while level > 0 {
                skipWhitespace()
                let isArray = arrayBits & (1 << (level - 1)) != 0
                switch peek {
                case Byte.comma:
                    index += 1
                    if !isArray {
                        skipWhitespace()
                        try skipKeyAndColon()
                    }
                    continue nextValue
                case Byte.closeBracket where isArray, Byte.closeBrace where !isArray:
                    index += 1
                    level -= 1
                default:
                    throw malformed(isArray ? "expected ',' or ']'" : "expected ',' or '}'")
                }
            }
            return
        }
    }

    private mutating func skipKeyAndColon() throws(ProtocolError) {
        guard peek == Byte.quote else { throw malformed("expected a key string") }
        _ = try scanString(keep: false)
        try skipColon()
    }

    /// Skips `:` and the whitespace around it.
    private mutating func skipColon() throws(ProtocolError) {
        skipWhitespace()
        guard peek == Byte.colon else { throw malformed("expected ':'") }
        index += 1
        skipWhitespace()
    }

    private mutating func skipLiteral(_ literal: StaticString) throws(ProtocolError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw malformed("invalid literal") }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard UnsafeBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(expected) else {
            throw malformed("invalid literal")
        }
        index += count
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, never converted: any
    /// size is fine because numbers are only ever refused later as `bad_value`.
    private mutating func skipNumber() throws(ProtocolError) {
        if peek == Byte.minus { index += 1 }
        guard isDigit(peek) else { throw malformed("invalid number") }
        if peek == Byte.zero {
            index += 1
        } else {
            skipDigits()
        }
        if peek == Byte.dot {
            index += 1
            guard isDigit(peek) else { throw malformed("invalid number") }
            skipDigits()
        }
        if peek == Byte.lowerE || peek == Byte.upperE {
            index += 1
            if peek == Byte.plus || peek == Byte.minus { index += 1 }
            guard isDigit(peek) else { throw malformed("invalid number") }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while isDigit(peek) { index += 1 }
    }

    // MARK: bytes

    /// The current byte, or 0 at the end (0 never starts or continues a valid token here).
    var peek: UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= Byte.zero && byte <= Byte.nine
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func malformed(_ what: String) -> ProtocolError {
        ProtocolError(.badJSON, "malformed JSON at byte \(index): \(what)")
    }
}

/// At most 40 characters of a client-supplied string, quoted, for error messages.
func quotedPrefix(_ text: String) -> String {
    let prefix = text.prefix(40)
    return prefix.endIndex == text.endIndex ? "\"\(text)\"" : "\"\(prefix)…\""
}
