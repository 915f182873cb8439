/// The loop's cork buffer: what a connection writes while it handles a read, when nothing of
/// its output was waiting, gathers here and leaves in one `write` at the read's end, with no
/// output chunk taken from the pool or queued (uWebSockets corks the same way). Only the
/// connection inside its read callback writes here, and callbacks do not nest, so one buffer
/// serves every connection of the loop. What does not fit, and what the socket does not take
/// at once, moves to the connection's write queue.
struct CorkBuffer {
    static let capacity = 16 * 1024
    let base: UnsafeMutableRawPointer
    private(set) var count = 0

    init() {
        base = .allocate(byteCount: Self.capacity, alignment: 16)
    }

    /// The bytes gathered so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Copies `bytes` after what is gathered; false (and nothing copied) when they do not fit.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= Self.capacity - count, let source = bytes.baseAddress else { return false }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
        return true
    }

    /// Copies the first `headerCount` (at most 8) bytes of `header`, little-endian, and then
    /// `payload` (a frame), or nothing when they do not fit.
    @inline(__always)
    mutating func append(header: UInt64, count headerCount: Int, payload: UnsafeRawBufferPointer) -> Bool {
        // The header is stored as one word (its unused bytes are overwritten by the payload):
        // room for 8 bytes, so the store stays inside the buffer.
        guard max(8, headerCount + payload.count) <= Self.capacity - count else { return false }
        (base + count).storeBytes(of: header.littleEndian, as: UInt64.self)
        if let source = payload.baseAddress {
            (base + count + headerCount).copyMemory(from: source, byteCount: payload.count)
        }
        count += headerCount + payload.count
        return true
    }

    /// Forgets what was gathered (sent, moved to a queue, or dropped).
    mutating func reset() { count = 0 }

    func deallocate() { base.deallocate() }
}
