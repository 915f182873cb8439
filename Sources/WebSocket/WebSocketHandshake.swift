import COpenSSL

/// The server's half of the opening handshake (RFC 6455 section 4.2): checks on
/// the client's headers and the `Sec-WebSocket-Accept` value to answer with.
public enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the client's key before hashing.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The only protocol version this server speaks.
    public static let supportedVersion = "13"

    /// Whether `key` (a `Sec-WebSocket-Key` value, surrounding spaces ignored) is
    /// the canonical base64 form of exactly 16 bytes: 22 base64 characters, the
    /// last one carrying no stray bits, then "==".
    @_specialize(exported: true, where Value == String)
    public static func isValidKey<Value: StringProtocol>(_ key: Value) -> Bool {
        if let valid = withTrimmedASCII(key, isValidKey(bytes:)) { return valid }
        return Array(trimmingSpaces(key).utf8).withUnsafeBufferPointer(isValidKey(bytes:))
    }

    /// `isValidKey` of a key's UTF-8 bytes, read in place (surrounding spaces ignored).
    public static func isValidKey(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        isValidKey(bytes: ASCIITokenList.trimmingSpaces(bytes))
    }

    private static func isValidKey(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else {
            return false
        }
        // The first 21 as two overlapping vectors (bytes 0-15 and 5-20) checked in one step
        // each: a byte loop cost about 13 instructions a byte.
        let start = UnsafeRawPointer(bytes.baseAddress!)
        let valid = base64Lanes(start.loadUnaligned(as: SIMD16<UInt8>.self))
            .& base64Lanes(start.loadUnaligned(fromByteOffset: 5, as: SIMD16<UInt8>.self))
        let words = unsafeBitCast(valid, to: SIMD2<UInt64>.self)
        guard words[0] & words[1] == ~0 else { return false }
        // 16 bytes = 128 bits; 22 characters carry 132, so the last 4 must be zero.
        guard let last = base64Value(bytes[21]) else { return false }
        return last & 0x0F == 0
    }

    /// Which of 16 bytes are base64 characters (letters, digits, "+", "/"). Each comparison
    /// is between two vectors: the overloads that take a scalar compile to a loop over the lanes.
    @inline(__always)
    private static func base64Lanes(_ bytes: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        let letter = (bytes | SIMD16(repeating: 0x20)) &- SIMD16(repeating: UInt8(ascii: "a"))
        let digit = bytes &- SIMD16(repeating: UInt8(ascii: "0"))
        return (pointwiseMin(letter, SIMD16(repeating: 25)) .== letter) .| (pointwiseMin(digit, SIMD16(repeating: 9)) .== digit)
            .| (bytes .== SIMD16(repeating: UInt8(ascii: "+"))) .| (bytes .== SIMD16(repeating: UInt8(ascii: "/")))
    }

    /// Whether a `Sec-WebSocket-Version` value asks for version 13.
    @_specialize(exported: true, where Value == String)
    public static func isSupportedVersion<Value: StringProtocol>(_ value: Value) -> Bool {
        // `supportedVersion`'s two bytes: elementsEqual with the string's UTF-8 view went
        // through generic code (about 190 instructions an upgrade).
        if let supported = withTrimmedASCII(value, { $0.count == 2 && $0[0] == UInt8(ascii: "1") && $0[1] == UInt8(ascii: "3") }) {
            return supported
        }
        return trimmingSpaces(value) == supportedVersion
    }

    /// `body` of the value without surrounding spaces and tabs, read in place as bytes; nil
    /// when the value is not ASCII (the Character path then decides) or not contiguous.
    /// The public callers are specialized for `String` (the server's header values), which
    /// spares each upgrade a dozen generic metadata look-ups.
    private static func withTrimmedASCII<Result>(_ value: some StringProtocol,
                                                 _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        value.utf8.withContiguousStorageIfAvailable { bytes -> Result? in
            for byte in bytes where byte >= 0x80 { return nil }
            return body(ASCIITokenList.trimmingSpaces(bytes))
        } ?? nil
    }

    /// Whether a comma-separated header value (`Connection`, `Upgrade`) lists
    /// `token`, compared case-insensitively (e.g. "keep-alive, Upgrade" has "upgrade").
    @_specialize(exported: true, where Value == String)
    public static func headerValue<Value: StringProtocol>(_ value: Value, containsToken token: String) -> Bool {
        // ASCII, the usual case, is scanned as bytes; other text goes through Unicode
        // lowercasing, which can map a non-ASCII letter to an ASCII one (the Kelvin sign).
        let scanned = value.utf8.withContiguousStorageIfAvailable { value in
            token.utf8.withContiguousStorageIfAvailable { token in
                ASCIITokenList.contains(value, token: token)
            } ?? nil
        } ?? nil
        if let scanned { return scanned }
        let wanted = token.lowercased()
        return value.split(separator: ",").contains { trimmingSpaces($0).lowercased() == wanted }
    }

    /// The `Sec-WebSocket-Accept` value for a client key: base64(SHA-1(key + GUID)),
    /// computed with OpenSSL. The key is used as sent, minus surrounding spaces.
    @_specialize(exported: true, where Value == String)
    public static func acceptValue<Value: StringProtocol>(forKey key: Value) -> String {
        withAcceptValue(forKey: key) { String(decoding: $0, as: UTF8.self) }
    }

    /// The length of an accept value: 20 bytes of SHA-1 in base64.
    static let acceptValueLength = 28

    /// `body` of the accept value's bytes, made in a stack buffer.
    private static func withAcceptValue<Value: StringProtocol, Result>(forKey key: Value,
                                                                       _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: acceptValueLength) { value in
            // An ASCII key (every valid one) is read in place; others take the Character path.
            if withTrimmedASCII(key, { writeAcceptValue(forKeyBytes: $0, into: value.baseAddress!) }) == nil {
                Array(trimmingSpaces(key).utf8).withUnsafeBufferPointer { writeAcceptValue(forKeyBytes: $0, into: value.baseAddress!) }
            }
            return body(UnsafeRawBufferPointer(value))
        }
    }

    /// Writes base64(SHA-1(key + GUID)), `acceptValueLength` bytes, to `destination`, in
    /// stack buffers.
    private static func writeAcceptValue(forKeyBytes key: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>) {
        var guid = guid
        guid.withUTF8 { guid in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: key.count + guid.count) { input in
                _ = input.initialize(fromContentsOf: key)
                _ = UnsafeMutableBufferPointer(rebasing: input[key.count...]).initialize(fromContentsOf: guid)
                // SHA-1 is 20 bytes; 20 bytes encode to 28 characters plus the NUL EVP_EncodeBlock writes.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA_DIGEST_LENGTH) + acceptValueLength + 1) { scratch in
                    let digest = scratch.baseAddress!
                    let encoded = digest + Int(SHA_DIGEST_LENGTH)
                    let hashed = rxlive_sha1(input.baseAddress, input.count, digest)
                    precondition(hashed == 1, "OpenSSL failed to compute a SHA-1 digest")
                    let length = EVP_EncodeBlock(encoded, digest, Int32(SHA_DIGEST_LENGTH))
                    precondition(length == acceptValueLength, "base64 of a SHA-1 digest is 28 characters")
                    destination.update(from: encoded, count: acceptValueLength)
                }
            }
        }
    }

    /// Computes one accept value when the server starts, so that whatever OpenSSL sets up on
    /// first use is the server's start-up cost and not the first session's. The digest is
    /// OpenSSL's SHA-1 on a stack context: no provider lookup, no context allocated per key.
    public static func prepare() {
        withAcceptValue(forKey: "AAAAAAAAAAAAAAAAAAAAAA==") { _ in }
    }

    /// The status line and headers of the `101 Switching Protocols` answer,
    /// ending with the blank line; `extensions` is the `Sec-WebSocket-Extensions` value
    /// of the extensions accepted, if any.
    @_specialize(exported: true, where Value == String)
    public static func switchingProtocolsResponse<Value: StringProtocol>(forKey key: Value, extensions: String? = nil) -> String {
        var response = ""
        withSwitchingProtocolsResponse(forKey: key, extensions: extensions) { response = String(decoding: $0, as: UTF8.self) }
        return response
    }

    /// `body` of the `101 Switching Protocols` answer's bytes (as
    /// `switchingProtocolsResponse(forKey:extensions:)` gives them), written in one stack
    /// buffer: the server sends them as they are, where building a `String` cost about
    /// 2,700 instructions per upgrade.
    @_specialize(exported: true, where Value == String)
    public static func withSwitchingProtocolsResponse<Value: StringProtocol>(
        forKey key: Value, extensions: String? = nil, _ body: (UnsafeRawBufferPointer) -> Void
    ) {
        withSwitchingProtocolsResponse(extensions: extensions, accept: { withAcceptValue(forKey: key, $0) }, body)
    }

    /// `withSwitchingProtocolsResponse(forKey:extensions:_:)` of a key's UTF-8 bytes (a
    /// request's field, read in place: no string made of it).
    public static func withSwitchingProtocolsResponse(
        forKeyBytes key: UnsafeBufferPointer<UInt8>, extensions: String? = nil, _ body: (UnsafeRawBufferPointer) -> Void
    ) {
        withSwitchingProtocolsResponse(extensions: extensions, accept: { write in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: acceptValueLength) { value in
                writeAcceptValue(forKeyBytes: ASCIITokenList.trimmingSpaces(key), into: value.baseAddress!)
                write(UnsafeRawBufferPointer(value))
            }
        }, body)
    }

    /// The `101` answer around the accept value `accept` hands its writer.
    private static func withSwitchingProtocolsResponse(
        extensions: String?, accept: ((UnsafeRawBufferPointer) -> Void) -> Void, _ body: (UnsafeRawBufferPointer) -> Void
    ) {
        let head: StaticString = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        let extensionsName: StaticString = "Sec-WebSocket-Extensions: "
        let acceptName: StaticString = "Sec-WebSocket-Accept: "
        let lineEnd: StaticString = "\r\n"
        let end: StaticString = "\r\n\r\n"
        var extensions = extensions
        let extensionsCount = extensions.map { extensionsName.utf8CodeUnitCount + $0.utf8.count + lineEnd.utf8CodeUnitCount } ?? 0
        let count = head.utf8CodeUnitCount + extensionsCount + acceptName.utf8CodeUnitCount + acceptValueLength
            + end.utf8CodeUnitCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            // A cursor pointer, not a counter captured by nested functions: a captured `var`
            // is boxed, and each write through it was a dynamic exclusivity check.
            var cursor = UnsafeMutableRawPointer(buffer.baseAddress!)
            func write(_ bytes: UnsafeRawBufferPointer, at cursor: inout UnsafeMutableRawPointer) {
                UnsafeMutableRawBufferPointer(start: cursor, count: bytes.count).copyMemory(from: bytes)
                cursor += bytes.count
            }
            func write(_ text: StaticString, at cursor: inout UnsafeMutableRawPointer) {
                write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), at: &cursor)
            }
            write(head, at: &cursor)
            if extensions != nil {
                write(extensionsName, at: &cursor)
                extensions!.withUTF8 { write(UnsafeRawBufferPointer($0), at: &cursor) }
                write(lineEnd, at: &cursor)
            }
            write(acceptName, at: &cursor)
            accept { write($0, at: &cursor) }
            write(end, at: &cursor)
            body(UnsafeRawBufferPointer(buffer))
        }
    }

    private static func base64Value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }

    private static func trimmingSpaces(_ value: some StringProtocol) -> Substring {
        let text = Substring(value)
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }),
              let end = text.lastIndex(where: { !isSpace($0) }) else { return text[text.endIndex...] }
        return text[start...end]
    }
}
