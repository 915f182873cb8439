import CZlib

/// Decompresses whole permessage-deflate messages (RFC 7692 section 7.2.2) with one raw
/// zlib stream, reset before every message, so one inflater serves every connection of a
/// loop in turn: no connection keeps zlib state between its messages.
///
/// Output never grows past the caller's limit: inflating stops at the first byte beyond
/// it (a compression bomb costs at most `limit` bytes). Not thread-safe: one per thread.
public final class PerMessageInflater {
    /// What one message inflated to. The bytes are valid only during the callback.
    public enum Outcome {
        /// The inflated message.
        case message(UnsafeRawBufferPointer)
        /// The message inflates to more than the limit.
        case tooBig
        /// The payload is not valid DEFLATE data.
        case corrupt
    }

    /// Output buffers larger than this are released after their message.
    private static let retainedCapacity = 256 << 10
    /// The empty stored block the sender removed from the end of the message.
    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    private var stream: UnsafeMutablePointer<z_stream>?
    private var output: UnsafeMutableRawPointer?
    private var capacity = 0

    /// An inflater; its zlib stream is made on first use.
    public init() {}

    /// The bytes of output buffer held now (tests check it never passes the limit).
    var outputCapacity: Int { capacity }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        output?.deallocate()
    }

    /// Inflates one message's payload (all its frames' payloads joined, without the
    /// trailing 00 00 FF FF) into at most `limit` bytes and hands the outcome to `body`.
    public func inflate<R>(_ compressed: UnsafeRawBufferPointer, limit: Int, _ body: (Outcome) -> R) -> R {
        guard let stream = preparedStream() else { return body(.corrupt) }
        defer { if capacity > Self.retainedCapacity { releaseOutput() } }
        var produced = 0
        var ended = false
        var failure: Outcome?
        Self.tail.withUnsafeBytes { tail in
            for segment in [compressed, tail] where !ended && failure == nil {
                stream.pointee.next_in = UnsafeMutablePointer(mutating: segment.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.pointee.avail_in = UInt32(segment.count)
                switch drain(stream, produced: &produced, limit: max(0, limit)) {
                case .inputUsed: break
                case .streamEnded: ended = true
                case .failed(let outcome): failure = outcome
                }
            }
        }
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        if let failure { return body(failure) }
        return body(.message(UnsafeRawBufferPointer(start: output, count: produced)))
    }

    private enum Step {
        case inputUsed
        case streamEnded
        case failed(Outcome)
    }

    /// Inflates until the current input is used up and all its output is out.
    private func drain(_ stream: UnsafeMutablePointer<z_stream>, produced: inout Int, limit: Int) -> Step {
        while true {
            let room = min(capacity, limit)
            let status: Int32
            if produced == room && room == limit {
                // Full at the limit: a single further byte of output makes the message too big.
                var probe: UInt8 = 0
                status = withUnsafeMutablePointer(to: &probe) { probe in
                    stream.pointee.next_out = probe
                    stream.pointee.avail_out = 1
                    return CZlib.inflate(stream, Z_SYNC_FLUSH)
                }
                if stream.pointee.avail_out == 0 { return .failed(.tooBig) }
            } else {
                if produced == room { grow(to: min(limit, max(4096, capacity * 2))) }
                let available = min(capacity, limit) - produced
                stream.pointee.next_out = output!.advanced(by: produced).assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = UInt32(available)
                status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                produced += available - Int(stream.pointee.avail_out)
            }
            switch status {
            case Z_STREAM_END:
                return .streamEnded
            case Z_OK, Z_BUF_ERROR:
                // Done once the input is used and zlib had room left: nothing is pending.
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return .inputUsed }
                if status == Z_BUF_ERROR && stream.pointee.avail_out > 0 { return .failed(.corrupt) }
            default:
                return .failed(.corrupt)
            }
        }
    }

    private func preparedStream() -> UnsafeMutablePointer<z_stream>? {
        if let stream {
            return inflateReset(stream) == Z_OK ? stream : nil
        }
        let fresh = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        fresh.initialize(to: z_stream())
        // 15 bits: a window as large as any the client may use.
        guard czlib_inflate_init_raw(fresh, 15) == Z_OK else {
            fresh.deallocate()
            return nil
        }
        stream = fresh
        return fresh
    }

    private func grow(to newCapacity: Int) {
        guard newCapacity > capacity else { return }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
        if let output {
            bigger.copyMemory(from: output, byteCount: capacity)
            output.deallocate()
        }
        output = bigger
        capacity = newCapacity
    }

    private func releaseOutput() {
        output?.deallocate()
        output = nil
        capacity = 0
    }
}
