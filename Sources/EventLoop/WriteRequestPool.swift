import CLibUV

/// One `uv_write` in flight: the request and the chunks it writes, which belong to it until
/// its callback. The request comes first, so a pointer to one is a pointer to the other.
/// The chunks travel with the request rather than with the connection: an idle connection
/// (nothing in flight) keeps no word for them.
struct PendingWrite {
    var request = uv_write_t()
    var chunks: [OutputChunk] = []

    /// The pending write that `request` is the first field of.
    static func of(_ request: UnsafeMutablePointer<uv_write_t>) -> UnsafeMutablePointer<PendingWrite> {
        UnsafeMutableRawPointer(request).assumingMemoryBound(to: PendingWrite.self)
    }
}

/// The loop's free list of pending writes (loop thread only). A connection holds one only
/// while its one write is in flight, so idle connections hold none; the list is bounded like
/// the chunk pool so a burst does not pin memory.
final class WriteRequestPool {
    // `@exclusivity(unchecked)`: loop thread only, and no access spans a call.
    @exclusivity(unchecked) private var free: [UnsafeMutablePointer<PendingWrite>] = []
    private let maxPooled = 256

    func take() -> UnsafeMutablePointer<PendingWrite> {
        if let pending = free.popLast() { return pending }
        let pending = UnsafeMutablePointer<PendingWrite>.allocate(capacity: 1)
        pending.initialize(to: PendingWrite())
        return pending
    }

    /// Takes back a pending write whose callback has run (its chunks already given back).
    func give(_ pending: UnsafeMutablePointer<PendingWrite>) {
        if free.count < maxPooled {
            free.append(pending)
        } else {
            pending.deinitialize(count: 1)
            pending.deallocate()
        }
    }

    deinit {
        for pending in free {
            pending.deinitialize(count: 1)
            pending.deallocate()
        }
    }
}
