// The strings of a client message: `JSONScanner` (ClientMessageReader.swift) scans a string
// in place when it has no escape, and decodes its escapes when it has.
extension JSONScanner {
    /// Scans the string whose opening quote is at `index`. With `keep` false the
    /// escapes are checked but nothing is stored.
    mutating func scanString(keep: Bool) throws(ProtocolError) -> ScannedString {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                index += 1
                return .raw(start..<index - 1)
            }
            if byte == Byte.backslash {
                return .decoded(try decodeString(from: start, keep: keep))
            }
            if byte < 0x20 { throw malformed("control character in a string") }
            index += 1
        }
        throw malformed("unterminated string")
    }

    /// Continues a string at its first backslash, decoding escapes.
    mutating func decodeString(from start: Int, keep: Bool) throws(ProtocolError) -> [UInt8] {
        var out: [UInt8] = []
        if keep {
            out.reserveCapacity(index - start + 16)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case Byte.quote:
                return out
            case Byte.backslash:
                guard index < bytes.count else { throw malformed("unterminated string") }
                let escaped = bytes[index]
                index += 1
                let decoded: UInt8
                switch escaped {
                case Byte.quote, Byte.backslash, Byte.slash: decoded = escaped
                case UInt8(ascii: "b"): decoded = 0x08
                case UInt8(ascii: "f"): decoded = 0x0C
                case UInt8(ascii: "n"): decoded = 0x0A
                case UInt8(ascii: "r"): decoded = 0x0D
                case UInt8(ascii: "t"): decoded = 0x09
                case Byte.lowerU:
                    let scalar = try readUnicodeEscape()
                    if keep { appendUTF8(scalar, to: &out) }
                    continue
                default:
                    index -= 2
                    throw malformed("invalid escape")
                }
                if keep { out.append(decoded) }
            case 0..<0x20:
                index -= 1
                throw malformed("control character in a string")
            default:
                if keep { out.append(byte) }
            }
        }
        throw malformed("unterminated string")
    }

    /// Reads the four hex digits after `\u` (and a second `\uXXXX` for a surrogate pair).
    mutating func readUnicodeEscape() throws(ProtocolError) -> Unicode.Scalar {
        let first = try readHex4()
        var code = first
        switch first {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 2, bytes[index] == Byte.backslash, bytes[index + 1] == Byte.lowerU else {
                throw malformed("lone high surrogate in a \\u escape")
            }
            index += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw malformed("lone high surrogate in a \\u escape")
            }
            code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        case 0xDC00...0xDFFF:
            throw malformed("lone low surrogate in a \\u escape")
        default:
            break
        }
        guard let scalar = Unicode.Scalar(code) else { throw malformed("invalid \\u escape") }
        return scalar
    }

    mutating func readHex4() throws(ProtocolError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw malformed("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case Byte.zero...Byte.nine: digit = byte - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw malformed("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let v = scalar.value
        switch v {
        case 0..<0x80:
            out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(0xC0 | UInt8(v >> 6))
            out.append(0x80 | UInt8(v & 0x3F))
        case 0x800..<0x10000:
            out.append(0xE0 | UInt8(v >> 12))
            out.append(0x80 | UInt8((v >> 6) & 0x3F))
            out.append(0x80 | UInt8(v & 0x3F))
        default:
            out.append(0xF0 | UInt8(v >> 18))
            out.append(0x80 | UInt8((v >> 12) & 0x3F))
            out.append(0x80 | UInt8((v >> 6) & 0x3F))
            out.append(0x80 | UInt8(v & 0x3F))
        }
    }
}
