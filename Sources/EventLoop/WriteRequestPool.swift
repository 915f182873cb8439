import CLibUV

/// The loop's free list of `uv_write_t` requests (loop thread only). A connection holds a
/// request only while its one write is in flight, so idle connections hold none; the list is
/// bounded like the chunk pool so a burst does not pin memory.
final class WriteRequestPool {
    // `@exclusivity(unchecked)`: loop thread only, and no access spans a call.
    @exclusivity(unchecked) private var free: [UnsafeMutablePointer<uv_write_t>] = []
    private let maxPooled = 256

    func take() -> UnsafeMutablePointer<uv_write_t> {
        free.popLast() ?? .allocate(capacity: 1)
    }

    /// Takes back a request whose callback has run.
    func give(_ request: UnsafeMutablePointer<uv_write_t>) {
        if free.count < maxPooled { free.append(request) } else { request.deallocate() }
    }

    deinit {
        for request in free { request.deallocate() }
    }
}
