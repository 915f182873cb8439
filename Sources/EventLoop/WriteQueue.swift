import CLibUV

/// A connection's unsent output and the backpressure it causes.
///
/// Written bytes wait in pooled chunks (`queued`); `uv_try_write` takes what the socket accepts
/// at once, and the rest goes to one `uv_write` whose chunks belong to that request
/// (`PendingWrite`) until its callback. `unsentBytes` counts everything written and not yet confirmed,
/// the TLS staging included. Kept inline in `TCPConnection` (no allocation of its own); it calls
/// neither the connection nor its delegate, so the connection decides what each result means.
struct WriteQueue {
    /// Whether the output holds the peer's reading back, and whether the delegate was told
    /// that it stopped doing so.
    enum Backpressure: UInt8 {
        /// Unsent bytes are below the high-water mark (or have not fallen to the low one since
        /// the delegate was last told).
        case flowing
        /// Unsent bytes passed the high-water mark: reading is paused.
        case paused
        /// Unsent bytes fell to the low-water mark in a flush; the delegate hears of it at the
        /// end of the connection's current callback.
        case drainedUnannounced
    }

    /// Most chunks handed to one `uv_write` (the size of the loop's `uv_buf_t` array).
    static let maxBuffersPerWrite = 64

    private(set) var queued = ChunkList()
    /// Bytes written but not yet confirmed by a write callback, modulo 2^32: `count(_:)`
    /// checks the whole total against `maxUnsentBytes` (at most 4 GiB), and past it the
    /// connection closes, so a live connection's total is exact in 32 bits.
    private var unsentCount: UInt32 = 0
    /// Bytes written but not yet confirmed by a write callback.
    var unsentBytes: Int { Int(unsentCount) }
    private(set) var backpressure = Backpressure.flowing
    /// Whether the delegate is handling a read, and where its writes go meanwhile.
    enum Cork: UInt8 {
        /// Not in a read: writes are queued, and flushes write.
        case off
        /// In a read: writes are queued (or staged) and flushes wait for the end of it, so the
        /// answers to everything one read brought leave in one system call.
        case queue
        /// In a read that began with nothing queued or in flight and no filter: writes gather
        /// in the loop's `CorkBuffer` until it is full, then in the queue after them.
        case loopBuffer
    }

    var cork = Cork.off
    /// True while a `uv_write` is in flight (its chunks are in its `PendingWrite`).
    private(set) var isWriting = false
    // 32-bit limits: the queue sits near the end of the connection's fields (28 bytes).
    var highWaterMark: UInt32 = 1 << 20
    var lowWaterMark: UInt32 = 256 << 10
    var maxUnsentBytes: UInt32 = 16 << 20

    /// What `count(_:)` made of the new total.
    enum Growth { case unchanged, paused, overLimit }

    /// Copies `bytes` into the queue.
    mutating func append(_ bytes: UnsafeRawBufferPointer, pool: OutputChunkPool) {
        queued.append(bytes, pool: pool)
    }

    /// Adds `count` bytes to the unsent total (queued here or staged for the filter) and
    /// pauses past the high-water mark.
    @inline(__always)
    mutating func count(_ count: Int) -> Growth {
        let total = Int(unsentCount) + count
        unsentCount = UInt32(truncatingIfNeeded: total)
        if total > Int(maxUnsentBytes) { return .overLimit }
        if total > Int(highWaterMark) && backpressure != .paused {
            backpressure = .paused
            return .paused
        }
        return .unchanged
    }

    /// Takes `count` bytes off the unsent total without sending them (staged bytes encoded or dropped).
    mutating func uncount(_ count: Int) {
        unsentCount &-= UInt32(truncatingIfNeeded: count)
    }

    /// Ends the pause once the unsent bytes fell to the low-water mark; true when it did.
    @inline(__always)
    mutating func resumeIfDrained() -> Bool {
        guard backpressure == .paused, unsentCount <= lowWaterMark else { return false }
        backpressure = .drainedUnannounced
        return true
    }

    /// True (once) when the delegate is owed `connectionDidDrain`.
    mutating func takeDrainAnnouncement() -> Bool {
        guard backpressure == .drainedUnannounced else { return false }
        backpressure = .flowing
        return true
    }

    /// The last queued chunk when it has room, else a new one from `pool` put at the end: the
    /// caller fills it (with a filter's output, outside any access to the queue).
    mutating func lastChunkWithSpace(pool: OutputChunkPool) -> OutputChunk {
        if queued.last.map({ $0.freeSpace == 0 }) ?? true { queued.append(pool.take()) }
        return queued[queued.count - 1]
    }

    /// Gives back the last chunk when filling it left it empty.
    mutating func dropEmptyLastChunk(pool: OutputChunkPool) {
        if let last = queued.last, last.count == 0 { pool.give(queued.removeLast()) }
    }

    /// Writes queued chunks synchronously while the socket takes them; what it took goes back
    /// to the pool (a partly written chunk keeps its rest). Only while no `uv_write` is in
    /// flight: a lone chunk goes to `writeSole` (the connection's `write(2)`, which then
    /// cannot overtake one), the others to `uv_try_write`.
    mutating func writeNow(to stream: UnsafeMutablePointer<uv_stream_t>, buffers: UnsafeMutablePointer<uv_buf_t>,
                           pool: OutputChunkPool, writeSole: (UnsafeRawBufferPointer) -> Int) {
        // A lone chunk, the common case (one frame), is written from its place in the list,
        // whole or in part: the general loop below retains and releases each chunk it reads.
        let sole = queued.withSoleChunkBytes { bytes, count -> (written: Int, offered: Int) in
            (writeSole(UnsafeRawBufferPointer(start: bytes, count: count)), count)
        }
        if let sole {
            guard sole.written > 0 else { return }
            unsentCount &-= UInt32(truncatingIfNeeded: sole.written)
            if sole.written == sole.offered {
                pool.give(queued.removeFirst())
            } else {
                queued[0].dropFirst(sole.written)
            }
            return
        }
        while !queued.isEmpty {
            let count = fill(buffers)
            let offered = queued[0..<count].reduce(0) { $0 + $1.count }
            let written = uv_try_write(stream, buffers, UInt32(count))
            guard written > 0 else { return }  // EAGAIN, or an error the uv_write after it reports
            var left = Int(written)
            while left > 0, let chunk = queued.first {
                if chunk.count <= left {
                    left -= chunk.count
                    queued.removeFirst()
                    pool.give(chunk)
                } else {
                    chunk.dropFirst(left)
                    left = 0
                }
            }
            unsentCount &-= UInt32(truncatingIfNeeded: written)
            if Int(written) < offered { return }  // the socket is full
        }
    }

    /// Moves the first queued chunks (at most `maxBuffersPerWrite`) into `chunks`, the
    /// pending write's, and points `buffers` at them; returns how many, for one `uv_write`.
    mutating func startWrite(buffers: UnsafeMutablePointer<uv_buf_t>, chunks: inout [OutputChunk]) -> Int {
        let count = fill(buffers)
        chunks.append(contentsOf: queued[0..<count])
        queued.removeFirst(count)
        isWriting = true
        return count
    }

    /// The write in flight completed (failed, or could not start): its chunks (the pending write's) go back
    /// to the pool and their bytes off the unsent total.
    mutating func finishWrite(chunks: inout [OutputChunk], pool: OutputChunkPool) {
        var sent = 0
        for chunk in chunks {
            sent += chunk.count
            pool.give(chunk)
        }
        chunks.removeAll(keepingCapacity: true)
        unsentCount &-= UInt32(truncatingIfNeeded: sent)
        isWriting = false
    }

    /// Gives every queued chunk back (the connection closed: no write callback is pending
    /// any more, so nothing is in flight).
    mutating func release(to pool: OutputChunkPool) {
        for chunk in queued { pool.give(chunk) }
        queued.removeAll()
        unsentCount = 0
    }

    /// Points the `uv_buf_t` scratch array at the first queued chunks; returns how many.
    /// `uv_write` and `uv_try_write` copy or use the array before they return.
    private func fill(_ buffers: UnsafeMutablePointer<uv_buf_t>) -> Int {
        let count = min(queued.count, Self.maxBuffersPerWrite)
        for index in 0..<count {
            let chunk = queued[index]
            buffers[index] = uv_buf_init(chunk.storage.assumingMemoryBound(to: CChar.self), UInt32(chunk.count))
        }
        return count
    }
}
