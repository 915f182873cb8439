import CLibUV

/// Work an `EventLoop` runs once at a due time (`EventLoop.schedule(_:after:)`): a subclass
/// overrides `timerFired()`, and `timerDropped()` for a loop that stops before it is due.
///
/// A task is its own entry in the loop's `LoopTimerQueue`, so timed work costs one object and
/// a heap slot: no timer handle, closure or close callback of its own. Loop thread only.
// @unchecked Sendable: its heap position is read and written only on its loop's thread;
// subclasses hand themselves to that thread (`EventLoop.execute`) to schedule.
open class LoopTimerTask: @unchecked Sendable {
    /// The task's index in the queue's heap; -1 while not scheduled.
    @exclusivity(unchecked) var heapIndex = -1
    /// The instant (`uv_hrtime`, nanoseconds) the task is due at.
    @exclusivity(unchecked) var due: UInt64 = 0
    /// The order it was scheduled in: of tasks due at the same time, the first scheduled runs
    /// first, as libuv runs its timers.
    @exclusivity(unchecked) var order: UInt64 = 0

    public init() {}

    /// Runs on the loop thread when the task is due (it is no longer scheduled).
    open func timerFired() {}

    /// Runs on the loop thread when the loop stops while the task is scheduled: it never fires.
    open func timerDropped() {}

    /// Whether the task waits in its loop's queue.
    public final var isScheduled: Bool { heapIndex >= 0 }
}

extension LoopTimerTask: IndexedHeapEntry {
    /// The due instant, then the order scheduled in.
    static func precedes(_ key: (due: UInt64, order: UInt64), _ other: (due: UInt64, order: UInt64)) -> Bool {
        key.due < other.due || (key.due == other.due && key.order < other.order)
    }
}

/// The loop's timed tasks, a min-heap by due time (then by order) on one timerfd armed for
/// the earliest (`LoopInstantTimer`): the timers of Rx's delays and timeouts cost a heap slot
/// each, not a timer handle opened and closed, and end when due, not at a millisecond's end.
/// Loop thread only.
final class LoopTimerQueue {
    /// Retained while scheduled; the vars go unchecked for exclusivity as in
    /// `ConnectionDeadlines` (loop thread only, never borrowed across a callout).
    @exclusivity(unchecked) private var heap = IndexedMinHeap<LoopTimerTask>()
    private let timer: LoopInstantTimer
    @exclusivity(unchecked) private var isClosed = false
    /// The due time the timer is armed for (`.max` when it is not).
    @exclusivity(unchecked) private var armedFor = UInt64.max
    @exclusivity(unchecked) private var nextOrder: UInt64 = 0
    /// While `fire()` runs its due tasks: tasks they schedule wait for its one `arm()` at the end.
    @exclusivity(unchecked) private var isFiring = false
    /// The instant `fire()` took as now: a task scheduled with no delay while firing is due then.
    @exclusivity(unchecked) private var firingAt: UInt64 = 0

    init(loop: UnsafeMutablePointer<uv_loop_t>) throws {
        timer = try LoopInstantTimer(loop: loop)
        timer.start(owner: self, timerQueueDidFire)
    }

    /// Tasks waiting.
    var count: Int { heap.count }

    /// Schedules `task` (not scheduled yet) for `nanoseconds` from now (`uv_hrtime`): it fires
    /// in the loop's first turn after that instant, never before. No delay is due at once
    /// (from a firing task: in the same pass). Returns false, leaving the task unscheduled,
    /// once the loop stops.
    func schedule(_ task: LoopTimerTask, afterNanoseconds nanoseconds: Int64) -> Bool {
        guard !isClosed, task.heapIndex < 0 else { return false }
        if nanoseconds <= 0 {
            task.due = isFiring ? firingAt : uv_hrtime()
        } else {
            let (instant, overflow) = uv_hrtime().addingReportingOverflow(UInt64(nanoseconds))
            task.due = overflow ? .max : instant
        }
        task.order = nextOrder
        nextOrder += 1
        heap.insert(task, key: (task.due, task.order))
        if task.due < armedFor && !isFiring { arm() }
        return true
    }

    /// Unschedules `task` if it is scheduled. The timer may still fire for it; it then finds
    /// nothing due and re-arms for the next.
    func cancel(_ task: LoopTimerTask) {
        let index = task.heapIndex
        guard index >= 0, index < heap.count, heap.entry(at: index) === task else { return }
        heap.remove(at: index)
    }

    /// Closes the timer (the loop is stopping): every waiting task is dropped, once.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        let dropped = heap.removeAll()
        timer.close()
        for task in dropped { task.timerDropped() }
    }

    /// Nanoseconds until the timer wakes the loop, from the kernel; nil when it is not armed.
    var remainingNanoseconds: UInt64? { timer.remainingNanoseconds }

    fileprivate func fire() {
        let now = uv_hrtime()
        firingAt = now
        armedFor = .max
        isFiring = true
        // Fires what is due, in order; a task scheduled meanwhile that is due runs in this
        // pass too (as a libuv timer started with no delay from a timer callback does).
        while let first = heap.first, first.due <= now {
            cancel(first)
            first.timerFired()
        }
        isFiring = false
        // Either call clears the expiry, which the poll would otherwise report every turn.
        if heap.isEmpty { timer.disarm() } else { arm() }
    }

    /// Arms the timer for the earliest task.
    private func arm() {
        guard !isClosed, let first = heap.first else { return }
        armedFor = first.due
        timer.arm(at: first.due)
    }
}

private func timerQueueDidFire(_ poll: UnsafeMutablePointer<uv_poll_t>?, _ status: Int32, _ events: Int32) {
    LoopInstantTimer.owner(of: poll, as: LoopTimerQueue.self)?.fire()
}
