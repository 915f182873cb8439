/// A comma-separated list of tokens in a header value (`Connection: keep-alive, Upgrade`),
/// searched as bytes: ASCII letters compare without case, spaces and tabs around an
/// element are ignored, empty elements never match.
public enum ASCIITokenList {
    /// Whether `value` lists `token`; nil when either holds a non-ASCII byte (the caller
    /// then compares with Unicode's rules).
    public static func contains(_ value: UnsafeBufferPointer<UInt8>, token: UnsafeBufferPointer<UInt8>) -> Bool? {
        for byte in value where byte >= 0x80 { return nil }
        for byte in token where byte >= 0x80 { return nil }
        guard !token.isEmpty else { return false }
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count && value[end] != UInt8(ascii: ",") { end += 1 }
            var first = start
            var last = end
            while first < last && isSpace(value[first]) { first += 1 }
            while last > first && isSpace(value[last - 1]) { last -= 1 }
            if last - first == token.count && equalIgnoringCase(value, from: first, token) { return true }
            start = end + 1
        }
        return false
    }

    /// ASCII letters folded to lower case; every other byte as it is.
    @inline(__always)
    public static func lowercase(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func equalIgnoringCase(_ value: UnsafeBufferPointer<UInt8>, from offset: Int,
                                          _ token: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<token.count where lowercase(value[offset + index]) != lowercase(token[index]) { return false }
        return true
    }
}
