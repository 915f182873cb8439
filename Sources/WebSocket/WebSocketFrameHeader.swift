/// The header of one frame (RFC 6455 section 5.2): 2 to 14 bytes before the payload.
///
/// Parsing here is structural only (it enforces that a 64-bit length has its most
/// significant bit clear); the protocol rules about which headers are allowed
/// live in `WebSocketProtocolMachine`.
public struct WebSocketFrameHeader: Hashable, Sendable {
    /// The largest header: 2 fixed bytes, an 8-byte length and a 4-byte key.
    public static let maxSize = 14
    /// The largest header a server writes (servers never mask).
    public static let maxServerSize = 10

    /// FIN: this frame ends its message.
    public var fin: Bool
    /// The three reserved bits RSV1–RSV3 as the low bits (0 unless an extension is negotiated).
    public var reservedBits: UInt8
    /// The opcode's four bits as sent; see `opcode` for the known ones.
    public var opcodeBits: UInt8
    /// The masking key, present exactly when the MASK bit is set.
    public var maskingKey: WebSocketMaskingKey?
    /// The payload length (at most 2^63 - 1).
    public var payloadLength: UInt64

    @inlinable
    public init(fin: Bool = true, reservedBits: UInt8 = 0, opcode: WebSocketOpcode,
                maskingKey: WebSocketMaskingKey? = nil, payloadLength: UInt64) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcodeBits = opcode.rawValue
        self.maskingKey = maskingKey
        self.payloadLength = payloadLength
    }

    /// The opcode, or nil for a reserved value.
    @inlinable
    public var opcode: WebSocketOpcode? { WebSocketOpcode(rawValue: opcodeBits) }

    /// The size of the whole header, known from its second byte alone.
    @inlinable
    public static func size(secondByte: UInt8) -> Int {
        let masked = secondByte & 0x80 != 0
        let extendedLength: Int
        switch secondByte & 0x7F {
        case 126: extendedLength = 2
        case 127: extendedLength = 8
        default: extendedLength = 0
        }
        return 2 + extendedLength + (masked ? 4 : 0)
    }

    /// The outcome of `parse`.
    public enum ParseResult: Hashable, Sendable {
        /// The header is complete: it is `size` bytes long.
        case header(WebSocketFrameHeader, size: Int)
        /// At least `needed` bytes are required in total.
        case incomplete(needed: Int)
        /// A 64-bit length with its most significant bit set.
        case invalidLength
    }

    /// Parses a header from the start of `bytes`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ParseResult {
        guard bytes.count >= 2 else { return .incomplete(needed: 2) }
        let first = bytes[0], second = bytes[1]
        let size = Self.size(secondByte: second)
        guard bytes.count >= size else { return .incomplete(needed: size) }
        var offset = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            length = UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            offset = 4
        } else if length == 127 {
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(bytes[index]) }
            guard length & (1 << 63) == 0 else { return .invalidLength }
            offset = 10
        }
        var key: WebSocketMaskingKey?
        if second & 0x80 != 0 {
            key = WebSocketMaskingKey(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
        }
        var header = WebSocketFrameHeader(fin: first & 0x80 != 0, reservedBits: (first >> 4) & 0x7,
                                          opcode: .continuation, maskingKey: key, payloadLength: length)
        header.opcodeBits = first & 0x0F
        return .header(header, size: size)
    }

    /// The number of bytes `write(into:)` produces.
    @inlinable
    public var encodedSize: Int {
        let lengthBytes = payloadLength < 126 ? 0 : (payloadLength <= 0xFFFF ? 2 : 8)
        return 2 + lengthBytes + (maskingKey == nil ? 0 : 4)
    }

    /// Writes the header (with the shortest length encoding) at the start of
    /// `buffer` and returns its size, or nil when `buffer` is too small.
    public func write(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let size = encodedSize
        guard buffer.count >= size else { return nil }
        buffer[0] = (fin ? 0x80 : 0) | (reservedBits & 0x7) << 4 | (opcodeBits & 0x0F)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        var offset = 2
        if payloadLength < 126 {
            buffer[1] = maskBit | UInt8(payloadLength)
        } else if payloadLength <= 0xFFFF {
            buffer[1] = maskBit | 126
            buffer[2] = UInt8(truncatingIfNeeded: payloadLength >> 8)
            buffer[3] = UInt8(truncatingIfNeeded: payloadLength)
            offset = 4
        } else {
            buffer[1] = maskBit | 127
            for index in 0..<8 {
                buffer[2 + index] = UInt8(truncatingIfNeeded: payloadLength >> (8 * UInt64(7 - index)))
            }
            offset = 10
        }
        if let key = maskingKey {
            for index in 0..<4 { buffer[offset + index] = key[index] }
        }
        return size
    }
}
