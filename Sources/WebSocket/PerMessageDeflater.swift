import CZlib

/// Compresses whole messages for permessage-deflate (RFC 7692 section 7.2.1) with one raw
/// zlib stream, reset before every message: the output never refers to an earlier message
/// (no context takeover), so one deflater serves every connection of a loop in turn.
/// Not thread-safe: one per thread.
public final class PerMessageDeflater {
    /// The LZ77 window, as a power of two (9–15).
    public let windowBits: Int
    private let level: Int32
    /// Output buffers larger than this are released after their message.
    private static let retainedCapacity = 256 << 10

    private var stream: UnsafeMutablePointer<z_stream>?
    private var output: UnsafeMutableRawPointer?
    private var capacity = 0

    /// A deflater with a `windowBits` window (clamped to 9–15) and zlib's compression `level`.
    /// The fastest level is the default: on JSON it costs a quarter of the CPU of zlib's
    /// default level and compresses almost as well.
    public init(windowBits: Int = 15, level: Int32 = Z_BEST_SPEED) {
        self.windowBits = min(15, max(PerMessageDeflateParameters.smallestServerWindowBits, windowBits))
        self.level = level
    }

    deinit {
        if let stream {
            deflateEnd(stream)
            stream.deallocate()
        }
        output?.deallocate()
    }

    /// Compresses `message` and hands `body` the payload to send with RSV1 set (the trailing
    /// 00 00 FF FF removed), valid only during the call; nil if zlib failed, so the message
    /// should go out as it is.
    public func compress<R>(_ message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard let stream = preparedStream() else { return body(nil) }
        defer { if capacity > Self.retainedCapacity { releaseOutput() } }
        // A sync flush adds at most an empty stored block and a few bits to deflateBound.
        ensureCapacity(Int(deflateBound(stream, uLong(message.count))) + 16)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: message.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(message.count)
        var produced = 0
        var failed = false
        while true {
            if produced == capacity { ensureCapacity(capacity * 2) }
            let available = capacity - produced
            stream.pointee.next_out = output!.advanced(by: produced).assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(available)
            let status = deflate(stream, Z_SYNC_FLUSH)
            produced += available - Int(stream.pointee.avail_out)
            if status != Z_OK && status != Z_BUF_ERROR {
                failed = true
                break
            }
            if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { break }
        }
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        guard !failed, produced >= 4 else { return body(nil) }
        // Without the 00 00 FF FF of the sync flush.
        return body(UnsafeRawBufferPointer(start: output, count: produced - 4))
    }

    private func preparedStream() -> UnsafeMutablePointer<z_stream>? {
        if let stream {
            return deflateReset(stream) == Z_OK ? stream : nil
        }
        let fresh = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        fresh.initialize(to: z_stream())
        guard czlib_deflate_init_raw(fresh, level, Int32(windowBits), 8) == Z_OK else {
            fresh.deallocate()
            return nil
        }
        stream = fresh
        return fresh
    }

    private func ensureCapacity(_ needed: Int) {
        guard needed > capacity else { return }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: 1)
        if let output {
            bigger.copyMemory(from: output, byteCount: capacity)
            output.deallocate()
        }
        output = bigger
        capacity = needed
    }

    private func releaseOutput() {
        output?.deallocate()
        output = nil
        capacity = 0
    }
}
