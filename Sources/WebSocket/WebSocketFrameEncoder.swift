/// Writes whole frames into buffers the caller owns.
///
/// Server frames are unmasked; pass a `maskingKey` only when acting as a client
/// (the load client and tests do). Two shapes:
/// - `write…(into: UnsafeMutableRawBufferPointer) -> Int?` writes at the start of
///   a raw buffer and returns the byte count (nil when it does not fit);
/// - `append…(to: inout [UInt8])` appends to a reusable array (keep it and call
///   `removeAll(keepingCapacity: true)` between uses: no allocation per frame).
public enum WebSocketFrameEncoder {
    /// The largest payload of a control frame (ping, pong, close).
    public static let maxControlPayload = 125
    /// The largest close reason: a control payload minus the two code bytes.
    public static let maxCloseReason = 123

    /// The header of a server frame (unmasked) whose payload is under 64 KiB, packed into a
    /// word from its low byte up (RFC 6455 5.2: FIN, RSV1, the opcode; the length in 7 bits,
    /// or 126 and the length in 16 bits in network order), and its size, 2 or 4: the caller
    /// stores the word's first `size` bytes on a little-endian machine. Nil for a payload of
    /// 64 KiB or more, whose 10-byte header `writeHeader` writes. Inlinable, so the header is
    /// built in the caller's registers. `compressed` sets RSV1.
    @inlinable @inline(__always)
    public static func packedHeader(opcode: WebSocketOpcode, compressed: Bool = false,
                                    payloadLength count: Int) -> (word: UInt64, size: Int)? {
        let first = UInt64(0x80 | (compressed ? 0x40 : 0) | opcode.rawValue)
        if count < 126 {
            return (first | UInt64(count) << 8, 2)
        }
        if count <= Int(UInt16.max) {
            let length = UInt64(count)
            return (first | 126 << 8 | (length >> 8) << 16 | (length & 0xFF) << 24, 4)
        }
        return nil
    }

    /// Writes only a frame header (unmasked, as a server sends it) for a payload of
    /// `payloadLength` bytes, so the payload can go out as a separate write buffer.
    /// Returns the header size (2, 4 or 10), or nil when `buffer` is too small.
    /// `compressed` sets RSV1: the first frame of a permessage-deflate message.
    public static func writeHeader(opcode: WebSocketOpcode, fin: Bool = true, compressed: Bool = false,
                                   payloadLength: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        WebSocketFrameHeader(fin: fin, reservedBits: compressed ? 0x4 : 0, opcode: opcode,
                             payloadLength: UInt64(max(0, payloadLength))).write(into: buffer)
    }

    /// Writes one frame (header, then `payload`, masked when a key is given); `compressed`
    /// sets RSV1.
    public static func writeFrame(opcode: WebSocketOpcode, fin: Bool = true, compressed: Bool = false,
                                  payload: UnsafeRawBufferPointer,
                                  maskingKey: WebSocketMaskingKey? = nil,
                                  into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let header = WebSocketFrameHeader(fin: fin, reservedBits: compressed ? 0x4 : 0, opcode: opcode,
                                          maskingKey: maskingKey, payloadLength: UInt64(payload.count))
        guard buffer.count >= header.encodedSize + payload.count,
              let headerSize = header.write(into: buffer) else { return nil }
        let body = UnsafeMutableRawBufferPointer(rebasing: buffer[headerSize ..< headerSize + payload.count])
        if payload.count > 0 { body.copyMemory(from: payload) }
        maskingKey?.apply(to: body, frameOffset: 0)
        return headerSize + payload.count
    }

    /// Appends one frame to `buffer`; `compressed` sets RSV1.
    public static func appendFrame(opcode: WebSocketOpcode, fin: Bool = true, compressed: Bool = false,
                                   payload: UnsafeRawBufferPointer,
                                   maskingKey: WebSocketMaskingKey? = nil,
                                   to buffer: inout [UInt8]) {
        let header = WebSocketFrameHeader(fin: fin, opcode: opcode, maskingKey: maskingKey,
                                          payloadLength: UInt64(payload.count))
        let start = buffer.count
        let total = header.encodedSize + payload.count
        buffer.append(contentsOf: repeatElement(0, count: total))
        buffer.withUnsafeMutableBytes { all in
            let target = UnsafeMutableRawBufferPointer(rebasing: all[start ..< start + total])
            _ = writeFrame(opcode: opcode, fin: fin, compressed: compressed, payload: payload,
                           maskingKey: maskingKey, into: target)
        }
    }

    /// Appends a text frame carrying `text`'s UTF-8 bytes.
    public static func appendText(_ text: String, maskingKey: WebSocketMaskingKey? = nil,
                                  to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            appendFrame(opcode: .text, payload: UnsafeRawBufferPointer(utf8), maskingKey: maskingKey, to: &buffer)
        }
    }

    /// Appends a pong that answers a ping (pass the ping's payload, at most 125 bytes).
    public static func appendPong(payload: UnsafeRawBufferPointer, maskingKey: WebSocketMaskingKey? = nil,
                                  to buffer: inout [UInt8]) {
        let trimmed = UnsafeRawBufferPointer(rebasing: payload.prefix(maxControlPayload))
        appendFrame(opcode: .pong, payload: trimmed, maskingKey: maskingKey, to: &buffer)
    }

    /// Appends a ping (payload truncated to 125 bytes).
    public static func appendPing(payload: UnsafeRawBufferPointer, maskingKey: WebSocketMaskingKey? = nil,
                                  to buffer: inout [UInt8]) {
        let trimmed = UnsafeRawBufferPointer(rebasing: payload.prefix(maxControlPayload))
        appendFrame(opcode: .ping, payload: trimmed, maskingKey: maskingKey, to: &buffer)
    }

    /// Writes a close frame with `code` and `reason` (cut to 123 bytes at a
    /// character boundary). A nil code gives an empty close payload.
    public static func writeClose(code: WebSocketCloseCode?, reason: String = "",
                                  maskingKey: WebSocketMaskingKey? = nil,
                                  into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        withClosePayload(code: code, reason: reason) { payload in
            writeFrame(opcode: .close, payload: payload, maskingKey: maskingKey, into: buffer)
        }
    }

    /// Appends a close frame; see `writeClose`.
    public static func appendClose(code: WebSocketCloseCode?, reason: String = "",
                                   maskingKey: WebSocketMaskingKey? = nil, to buffer: inout [UInt8]) {
        withClosePayload(code: code, reason: reason) { payload in
            appendFrame(opcode: .close, payload: payload, maskingKey: maskingKey, to: &buffer)
        }
    }

    /// Builds a close payload on the stack: two code bytes then the reason.
    private static func withClosePayload<R>(code: WebSocketCloseCode?, reason: String,
                                            _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let code else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return withUnsafeTemporaryAllocation(byteCount: 2 + maxCloseReason, alignment: 1) { storage in
            storage[0] = UInt8(code.rawValue >> 8)
            storage[1] = UInt8(code.rawValue & 0xFF)
            var count = 2
            // Stop before a character that would not fit whole.
            for scalar in reason.unicodeScalars {
                let scalarLength = UTF8.width(scalar)
                guard count + scalarLength <= storage.count, let encoded = UTF8.encode(scalar) else { break }
                for unit in encoded {
                    storage[count] = unit
                    count += 1
                }
            }
            return body(UnsafeRawBufferPointer(rebasing: storage[0 ..< count]))
        }
    }
}
