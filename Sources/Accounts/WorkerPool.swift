import Dispatch
import FoundationEssentials
import Glibc
import ProcessSupport
import RxSwift
import Synchronization

/// A fixed number of threads that run blocking work (password hashing, database round
/// trips) off the event loops, as an Rx scheduler. Disposing work that has not started
/// removes its effect.
///
/// Work given a key (a client address) is bounded and fair: at most `maxQueued` keyed
/// items wait at once, and the keys that used the pool least lately go first (each attempt
/// counts, its weight halving every 10 s). One key may hold any number of free places (six
/// people behind one NAT address log in at once); disposed work holds none. When the queue
/// is full, a newcomer whose key used the pool less than the busiest key in line takes that
/// key's last place (that item is shed: its `onShed` runs); otherwise the newcomer is
/// refused at once. So a client that comes by once goes ahead of a hundred clients
/// hammering the pool, and waits only for the work already running. Work without a key
/// (the scheduler's) is neither bounded nor shed, and goes first.
///
/// The threads run at the loops' priority by default (`nice` 0): at nice 10 a flood of
/// cheap requests that kept the loops busy starved the hashing of a real user's login (7 s
/// to answer one login while 100 addresses hammered, 0.3 s at nice 0). There are fewer
/// threads than cores (`rxlive --login-workers`), so hashing never takes every core.
public final class WorkerPool: ImmediateSchedulerType, Sendable {
    /// How many threads run work.
    public let threadCount: Int
    /// Most keyed items waiting at once.
    public let maxQueued: Int
    private let queue = Mutex(FairQueue())
    private let available = DispatchSemaphore(value: 0)
    private let started = Atomic<Int>(0)

    /// Starts `threads` worker threads named `name`.
    /// - Parameters:
    ///   - maxQueued: most keyed items waiting at once; 16 per thread when nil.
    public init(threads: Int, name: String = "rxlive.workers", nice: Int32 = 0, maxQueued: Int? = nil) {
        threadCount = max(1, threads)
        self.maxQueued = max(1, maxQueued ?? 16 * threadCount)
        for index in 0..<threadCount {
            NamedThread.start(name: "\(name)-\(index)") { [self] in
                // On Linux the nice value is per thread, and `who` 0 is the calling thread.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
                work()
            }
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

    /// Queues `action` under `key`, within the bound; nil when it is refused at once (the
    /// queue is full and no busier key is in line, or the pool is shut down). `onShed` runs
    /// instead of `action` when a fairer newcomer takes its place later.
    public func schedule(key: String, onShed: @escaping () -> Void, action: @escaping () -> Void) -> Disposable? {
        let item = WorkItem(UncheckedWork(action), onShed: UncheckedWork(onShed))
        let (accepted, shed) = queue.withLock { queue -> (Bool, WorkItem?) in
            guard !queue.stopping else { return (false, nil) }
            let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
            return queue.admit(item, key: key, now: now, maxQueued: maxQueued)
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

    /// Items taken off the queue to run since the pool started: how much work went ahead of
    /// an item, counted whatever the machine's speed.
    package var startedCount: Int {
        started.load(ordering: .relaxed)
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
                started.add(1, ordering: .relaxed)
                next.run()
            } else if stopping {
                return
            }
        }
    }
}

/// Queued items: unkeyed ones first in arrival order, then keyed ones by how much their key
/// used the pool lately, least first (then in arrival order).
///
/// A key's use is the number of its attempts, queued or refused, decaying by half every
/// `halfLife`: a key that keeps knocking, even on a full queue, stays behind one that comes
/// once in a while, and a newcomer goes to the head of the line. When the queue is full, the
/// item of the key that used the pool most gives way to a newcomer that used it less.
private struct FairQueue {
    struct Keyed {
        let item: WorkItem
        let key: String
        /// The key's use when the item came: smaller goes first.
        let use: Double
        let arrival: UInt64
    }

    /// How fast a key's use is forgotten.
    static let halfLife: Double = 10

    private var unkeyed: [WorkItem] = []
    private var unkeyedHead = 0
    private var keyed: [Keyed] = []
    /// Per key, its use and when (in seconds of uptime) it was last brought up to date.
    private var uses: [String: (use: Double, at: Double)] = [:]
    private var arrivals: UInt64 = 0
    var stopping = false

    var count: Int { unkeyed.count - unkeyedHead + keyed.count }

    mutating func push(_ item: WorkItem) {
        unkeyed.append(item)
    }

    /// Queues a keyed item within the bound at time `now` (seconds): whether it was
    /// queued, and the item it displaced (to be shed outside the lock).
    mutating func admit(_ item: WorkItem, key: String, now: Double, maxQueued: Int) -> (Bool, WorkItem?) {
        let use = Self.decayed(uses[key], now: now)
        uses[key] = (use + 1, now)
        if uses.count > 8 * maxQueued + 256 {
            // Bounded whatever the number of addresses: forget the keys that have gone quiet,
            // and all of them if that is not enough.
            uses = uses.filter { Self.decayed($0.value, now: now) >= 0.5 }
            if uses.count > 16 * maxQueued + 512 { uses = [key: (use + 1, now)] }
        }
        var displaced: WorkItem?
        if keyed.count >= maxQueued {
            // A cancelled request (a tap that a newer tap replaced) gives its place back first.
            keyed.removeAll { $0.item.isDisposed }
        }
        if keyed.count >= maxQueued {
            // The busiest key's latest item gives way, to a newcomer that used the pool less.
            guard let last = keyed.indices.max(by: { (keyed[$0].use, keyed[$0].arrival) < (keyed[$1].use, keyed[$1].arrival) }),
                  keyed[last].use > use else { return (false, nil) }
            displaced = keyed.remove(at: last).item
        }
        arrivals += 1
        keyed.append(Keyed(item: item, key: key, use: use, arrival: arrivals))
        return (true, displaced)
    }

    /// The next item: the oldest unkeyed one, else the keyed one whose key used the pool least.
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
        guard let first = keyed.indices.min(by: { (keyed[$0].use, keyed[$0].arrival) < (keyed[$1].use, keyed[$1].arrival) }) else {
            return nil
        }
        return keyed.remove(at: first).item
    }

    /// A key's use at `now`, halved for every `halfLife` since it was last brought up to date.
    private static func decayed(_ entry: (use: Double, at: Double)?, now: Double) -> Double {
        guard let entry else { return 0 }
        return entry.use * Glibc.pow(0.5, max(0, now - entry.at) / halfLife)
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
