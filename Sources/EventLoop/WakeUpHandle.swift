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
            let jobs = queue.withLock { queue -> [@Sendable () -> Void] in
                let jobs = queue.jobs
                queue.jobs.removeAll()
                return jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job() }
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
