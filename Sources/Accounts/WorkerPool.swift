import Dispatch
import Foundation
import RxSwift
import Synchronization

/// A fixed number of threads that run blocking work (password hashing, database round
/// trips) off the event loops, as an Rx scheduler. Disposing work that has not started
/// removes its effect.
///
/// Work given a key (a client address) is bounded and fair: at most `maxQueued` keyed
/// items wait at once, at most `maxQueuedPerKey` of them with one key, and the keys that
/// used the pool least lately go first (start-time fair queueing). When the queue is full,
/// a newcomer that would go before the last item in line takes its place (that item is
/// shed: its `onShed` runs); otherwise the newcomer is refused at once. So a hundred
/// clients hammering the pool delay a client that comes by once by at most one item each
/// of the `maxQueued` in line, never more. Work without a key (the scheduler's) is neither
/// bounded nor shed, and goes first.
///
/// The threads run at a lower priority (nice 10) than the loops, so on a busy machine
/// hashing takes the CPU the loops leave over rather than delaying their replies.
public final class WorkerPool: ImmediateSchedulerType, Sendable {
    /// How many threads run work.
    public let threadCount: Int
    /// Most keyed items waiting at once.
    public let maxQueued: Int
    /// Most keyed items waiting with one key.
    public let maxQueuedPerKey: Int
    private let queue = Mutex(FairQueue())
    private let available = DispatchSemaphore(value: 0)

    /// Starts `threads` worker threads named `name`.
    /// - Parameters:
    ///   - maxQueued: most keyed items waiting at once; 16 per thread when nil.
    ///   - maxQueuedPerKey: most keyed items waiting with one key.
    public init(threads: Int, name: String = "rxlive.workers", nice: Int32 = 10,
                maxQueued: Int? = nil, maxQueuedPerKey: Int = 4) {
        threadCount = max(1, threads)
        self.maxQueued = max(1, maxQueued ?? 16 * threadCount)
        self.maxQueuedPerKey = max(1, maxQueuedPerKey)
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

    /// Queues `action` without a key; it runs on a worker thread unless the returned
    /// disposable is disposed first.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = WorkItem(UncheckedWork { _ = action(state) }, onShed: nil)
        let accepted = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.push(item)
            return true
        }
        guard accepted else { return Disposables.create() }
        available.signal()
        return item
    }

    /// Queues `action` under `key`, within the bounds; nil when it is refused at once (the
    /// queue is full and `key` has its fair share, or the pool is shut down). `onShed` runs
    /// instead of `action` when a fairer newcomer takes its place later.
    public func schedule(key: String, onShed: @escaping () -> Void, action: @escaping () -> Void) -> Disposable? {
        let item = WorkItem(UncheckedWork(action), onShed: UncheckedWork(onShed))
        let (accepted, shed) = queue.withLock { queue -> (Bool, WorkItem?) in
            guard !queue.stopping else { return (false, nil) }
            return queue.admit(item, key: key, maxQueued: maxQueued, maxQueuedPerKey: maxQueuedPerKey)
        }
        shed?.shed()
        guard accepted else { return nil }
        available.signal()
        return item
    }

    /// Work queued and not yet started.
    public var queuedCount: Int {
        queue.withLock { $0.count }
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

/// Queued items: unkeyed ones first in arrival order, then keyed ones in start-time fair
/// queueing order. Each keyed item gets a virtual start, the later of the virtual time now
/// (the start of the item last taken) and the end of its key's previous item; the smallest
/// start runs first, and when the queue is full the largest start is shed. A key that
/// has not used the pool lately starts at the virtual time now, ahead of every key that
/// keeps it busy, and is never the one shed while they wait.
private struct FairQueue {
    struct Keyed {
        let item: WorkItem
        let key: String
        let start: UInt64
        let arrival: UInt64
    }

    private var unkeyed: [WorkItem] = []
    private var unkeyedHead = 0
    private var keyed: [Keyed] = []
    /// Virtual time: the start of the keyed item last taken.
    private var virtualTime: UInt64 = 0
    /// Per key, the virtual end of its last attempt (only those still ahead of now matter).
    private var finishes: [String: UInt64] = [:]
    private var arrivals: UInt64 = 0
    var stopping = false

    var count: Int { unkeyed.count - unkeyedHead + keyed.count }

    mutating func push(_ item: WorkItem) {
        unkeyed.append(item)
    }

    /// Queues a keyed item within the bounds: whether it was queued, and the item it
    /// displaced (to be shed outside the lock).
    mutating func admit(_ item: WorkItem, key: String, maxQueued: Int, maxQueuedPerKey: Int) -> (Bool, WorkItem?) {
        // Every attempt moves its key's end on, refused or not: a key that keeps knocking
        // on a full queue falls behind those that came once.
        let start = max(virtualTime, finishes[key] ?? 0)
        finishes[key] = start + 1
        if finishes.count > 4 * maxQueued + 64 {
            finishes = finishes.filter { $0.value > virtualTime }
            // Bounded whatever the number of addresses: past twice the limit, the debts are forgiven.
            if finishes.count > 8 * maxQueued + 128 { finishes.removeAll() }
        }
        guard keyed.count(where: { $0.key == key }) < maxQueuedPerKey else { return (false, nil) }
        var displaced: WorkItem?
        if keyed.count >= maxQueued {
            // The latest start gives way; among equal starts, the latest arrival.
            guard let last = keyed.indices.max(by: { (keyed[$0].start, keyed[$0].arrival) < (keyed[$1].start, keyed[$1].arrival) }),
                  keyed[last].start > start else { return (false, nil) }
            displaced = keyed.remove(at: last).item
        }
        arrivals += 1
        keyed.append(Keyed(item: item, key: key, start: start, arrival: arrivals))
        return (true, displaced)
    }

    /// The next item: the oldest unkeyed one, else the keyed one with the smallest start.
    mutating func pop() -> WorkItem? {
        if unkeyedHead < unkeyed.count {
            let item = unkeyed[unkeyedHead]
            unkeyedHead += 1
            if unkeyedHead > 64, unkeyedHead * 2 > unkeyed.count {
                unkeyed.removeFirst(unkeyedHead)
                unkeyedHead = 0
            }
            return item
        }
        guard let first = keyed.indices.min(by: { (keyed[$0].start, keyed[$0].arrival) < (keyed[$1].start, keyed[$1].arrival) }) else {
            return nil
        }
        let next = keyed.remove(at: first)
        virtualTime = max(virtualTime, next.start)
        return next.item
    }
}

/// Work handed to another thread. The action was given to `schedule` to run elsewhere:
/// it is called once, on the worker thread that takes it (or, for `onShed`, on the thread
/// whose newcomer displaced it).
private struct UncheckedWork: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}

/// One queued action: runs once unless disposed before it starts; a shed item runs its
/// `onShed` instead.
private final class WorkItem: Cancelable, Sendable {
    private let work: Mutex<UncheckedWork?>
    private let onShed: UncheckedWork?

    init(_ work: UncheckedWork, onShed: UncheckedWork?) {
        self.work = Mutex(work)
        self.onShed = onShed
    }

    var isDisposed: Bool { work.withLock { $0 == nil } }

    func dispose() {
        _ = work.withLock { $0.take() }
    }

    func run() {
        work.withLock { $0.take() }?.run()
    }

    /// Gives up the place: `onShed` runs unless the item was disposed.
    func shed() {
        if work.withLock({ $0.take() }) != nil { onShed?.run() }
    }
}
