import CLibUV
import Synchronization

/// The loop's `uv_async` handle: other threads queue work under a lock and wake the loop,
/// which runs the queued work on its own thread in order.
final class WakeUpHandle: LoopHandle {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var closed = false
    }

    private let queue = Mutex(Queue())
    /// An empty array with capacity that `drain()` leaves in the queue in place of the jobs it
    /// takes, so enqueueing reuses storage instead of allocating an array per wake-up.
    /// Loop thread only (as `drain()`); `nonisolated(unsafe)` for that reason.
    nonisolated(unsafe) private var spare: [@Sendable () -> Void] = []

    init(loop: EventLoop) throws {
        super.init(loop: loop, type: UV_ASYNC)
        try finishInit(status: uv_async_init(loop.uvLoop, handle, wakeUpDidFire), operation: "uv_async_init")
    }

    private var handle: UnsafeMutablePointer<uv_async_t> { rawHandle.assumingMemoryBound(to: uv_async_t.self) }

    /// Queues `work` and wakes the loop; any thread. Returns false once the handle is closed.
    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        queue.withLock { queue in
            guard !queue.closed else { return false }
            queue.jobs.append(work)
            // Sent under the lock so it can never race with uv_close below.
            uv_async_send(handle)
            return true
        }
    }

    /// Runs everything queued so far (and what that work queues in turn).
    func drain() {
        while true {
            var jobs = spare
            spare = []
            queue.withLock { queue in swap(&queue.jobs, &jobs) }
            if jobs.isEmpty {
                spare = jobs
                return
            }
            for job in jobs { job() }
            // Kept for the next drain unless a burst made it large.
            if jobs.capacity <= 64 {
                jobs.removeAll(keepingCapacity: true)
                spare = jobs
            }
        }
    }

    override func willClose() {
        queue.withLock { $0.closed = true }
    }

    override func didClose() {
        queue.withLock { $0.jobs.removeAll() }
    }
}

private func wakeUpDidFire(_ handle: UnsafeMutablePointer<uv_async_t>?) {
    (LoopHandle.owner(of: handle.map(UnsafeMutableRawPointer.init)) as? WakeUpHandle)?.drain()
}
