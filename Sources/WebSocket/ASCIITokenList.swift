/// A comma-separated list of tokens in a header value (`Connection: keep-alive, Upgrade`),
/// searched as bytes: ASCII letters compare without case, spaces and tabs around an
/// element are ignored, empty elements never match.
package enum ASCIITokenList {
    /// Whether `value` lists `token`; nil when either holds a non-ASCII byte (the caller
    /// then compares with Unicode's rules).
    package static func contains(_ value: UnsafeBufferPointer<UInt8>, token: UnsafeBufferPointer<UInt8>) -> Bool? {
        // The usual value is the token alone (`Upgrade: websocket`): one comparison. Folding
        // changes only A-Z, so a value equal to an ASCII token is ASCII too.
        if value.count == token.count && !token.isEmpty && equalIgnoringCase(value, token) && isASCII(token) { return true }
        for byte in value where byte >= 0x80 { return nil }
        for byte in token where byte >= 0x80 { return nil }
        guard !token.isEmpty else { return false }
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count && value[end] != UInt8(ascii: ",") { end += 1 }
            if equalIgnoringCase(trimmingSpaces(UnsafeBufferPointer(rebasing: value[start..<end])), token) { return true }
            start = end + 1
        }
        return false
    }

    /// ASCII letters folded to lower case; every other byte as it is.
    @inlinable @inline(__always)
    package static func lowercase(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// `bytes` without the spaces and tabs around them.
    static func trimmingSpaces(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func equalIgnoringCase(_ value: UnsafeBufferPointer<UInt8>, _ token: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.count == token.count else { return false }
        for index in 0..<token.count where lowercase(value[index]) != lowercase(token[index]) { return false }
        return true
    }
}
