/// The frame opcodes RFC 6455 (section 5.2) defines. Every other value of the
/// four opcode bits is reserved and makes the frame a protocol error.
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Control frames (close, ping, pong) may not be fragmented and carry at most
    /// 125 bytes; they may arrive between the fragments of a data message.
    @inlinable
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
