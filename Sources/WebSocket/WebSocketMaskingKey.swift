/// The four-byte key a client XORs over every payload byte (RFC 6455 section 5.3).
///
/// Byte `i` of a frame's payload is XORed with key byte `i % 4`; applying the key
/// twice gives back the original bytes, so one routine masks and unmasks.
public struct WebSocketMaskingKey: Hashable, Sendable {
    /// The key bytes in wire order packed little-endian: wire byte `j` is
    /// `(packed >> (8 * j)) & 0xFF`.
    public let packed: UInt32

    /// A key from its four wire bytes.
    @inlinable
    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        packed = UInt32(b0) | UInt32(b1) << 8 | UInt32(b2) << 16 | UInt32(b3) << 24
    }

    /// A key whose wire bytes are the little-endian bytes of `packed`.
    @inlinable
    public init(packed: UInt32) { self.packed = packed }

    /// A fresh random key, as a client must use for every frame.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> WebSocketMaskingKey {
        WebSocketMaskingKey(packed: UInt32.random(in: .min ... .max, using: &generator))
    }

    /// Wire byte `index` (0...3) of the key.
    @inlinable
    public subscript(index: Int) -> UInt8 { UInt8(truncatingIfNeeded: packed >> (8 * UInt32(index & 3))) }

    /// XORs the key over `buffer` in place, where `buffer` starts at byte
    /// `frameOffset` of the frame's payload (so a payload can arrive in pieces).
    ///
    /// Works eight bytes at a time with unaligned loads; no allocation.
    public func apply(to buffer: UnsafeMutableRawBufferPointer, frameOffset: UInt64) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let shift = UInt32(frameOffset & 3) * 8
        // The key as it lines up with buffer[0], buffer[1], ...
        let rotated = shift == 0 ? packed : (packed >> shift) | (packed << (32 - shift))
        let memoryWord = rotated.littleEndian   // native value whose memory bytes are the key in order
        let word = UInt64(memoryWord) | UInt64(memoryWord) << 32
        let count = buffer.count
        var index = 0
        while index + 8 <= count {
            let chunk = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: chunk ^ word, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        // index is a multiple of 8, so the key still lines up at `rotated`'s byte 0.
        while index < count {
            let keyByte = UInt8(truncatingIfNeeded: rotated >> (8 * UInt32(index & 3)))
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            base.storeBytes(of: byte ^ keyByte, toByteOffset: index, as: UInt8.self)
            index += 1
        }
    }
}
