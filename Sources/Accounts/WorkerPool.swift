import Dispatch
import Foundation
import RxSwift
import Synchronization

/// A fixed number of threads that run blocking work (password hashing, database round
/// trips) off the event loops, as an Rx scheduler. Work waits in a FIFO queue when
/// every thread is busy; disposing work that has not started removes its effect.
///
/// The threads run at a lower priority (nice 10) than the loops, so on a busy machine
/// hashing takes the CPU the loops leave over rather than delaying their replies.
public final class WorkerPool: ImmediateSchedulerType, Sendable {
    /// How many threads run work.
    public let threadCount: Int
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)

    private struct Queue {
        var items: [WorkItem] = []
        var head = 0
        var stopping = false

        mutating func pop() -> WorkItem? {
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head > 64, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return item
        }
    }

    /// Starts `threads` worker threads named `name`.
    public init(threads: Int, name: String = "rxlive.workers", nice: Int32 = 10) {
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            let thread = Thread { [self] in
                // On Linux the nice value is per thread, and `who` 0 is the calling thread.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
                work()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Queues `action`; it runs on a worker thread unless the returned disposable is
    /// disposed first.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = WorkItem(UncheckedWork { _ = action(state) })
        let accepted = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.items.append(item)
            return true
        }
        guard accepted else { return Disposables.create() }
        available.signal()
        return item
    }

    /// Work queued and not yet started.
    public var queuedCount: Int {
        queue.withLock { $0.items.count - $0.head }
    }

    /// Lets the threads finish the queued work and exit; later work is dropped.
    public func shutdown() {
        queue.withLock { $0.stopping = true }
        for _ in 0..<threadCount { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let (next, stopping) = queue.withLock { queue in (queue.pop(), queue.stopping) }
            if let next {
                next.run()
            } else if stopping {
                return
            }
        }
    }
}

/// Work handed to another thread. The action was given to `schedule` to run elsewhere:
/// it is called once, on the worker thread that takes it.
private struct UncheckedWork: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}

/// One queued action: runs once unless disposed before it starts.
private final class WorkItem: Cancelable, Sendable {
    private let work: Mutex<UncheckedWork?>

    init(_ work: UncheckedWork) {
        self.work = Mutex(work)
    }

    var isDisposed: Bool { work.withLock { $0 == nil } }

    func dispose() {
        _ = work.withLock { $0.take() }
    }

    func run() {
        work.withLock { $0.take() }?.run()
    }
}
