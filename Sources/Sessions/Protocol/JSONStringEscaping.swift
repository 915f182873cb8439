/// JSON's string escapes, in one place for the writers that build JSON as a `String`
/// (`appendJSONString`) and as bytes (`RecordingBuffer.put(jsonString:)`): `"`, `\` and every
/// control character below U+0020 are escaped (short forms where JSON has them, `\u00XX`
/// otherwise); everything else, non-ASCII included, is copied as UTF-8. Every byte that needs
/// an escape is ASCII, so working on UTF-8 bytes never splits a character.
enum JSONEscape {
    /// Whether a UTF-8 byte must be escaped inside a JSON string.
    @inline(__always)
    static func isNeeded(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Hands `put` the escape of `byte` (one that `isNeeded`), backslash first.
    @inline(__always)
    static func escape(_ byte: UInt8, _ put: (UInt8) -> Void) {
        put(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
        case 0x0A: put(UInt8(ascii: "n"))
        case 0x0D: put(UInt8(ascii: "r"))
        case 0x09: put(UInt8(ascii: "t"))
        case 0x08: put(UInt8(ascii: "b"))
        case 0x0C: put(UInt8(ascii: "f"))
        default:
            put(UInt8(ascii: "u"))
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "0"))
            put(hexDigit(byte >> 4))
            put(hexDigit(byte & 0xF))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

extension String {
    /// Appends `text` as a JSON string literal, escaped as `JSONEscape` says.
    mutating func appendJSONString(_ text: String) {
        append("\"")
        if !text.utf8.contains(where: JSONEscape.isNeeded) {
            append(text)
        } else {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count + 8)
            for byte in text.utf8 {
                if JSONEscape.isNeeded(byte) {
                    JSONEscape.escape(byte) { bytes.append($0) }
                } else {
                    bytes.append(byte)
                }
            }
            append(String(decoding: bytes, as: UTF8.self))
        }
        append("\"")
    }
}
