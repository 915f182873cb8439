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
    /// The loop time (milliseconds) the task is due at.
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
    func precedes(_ other: LoopTimerTask) -> Bool {
        due < other.due || (due == other.due && order < other.order)
    }
}

/// The loop's timed tasks, a min-heap by due time (then by order) on one libuv timer armed
/// for the earliest: the timers of Rx's delays and timeouts cost a heap slot each, not a
/// `uv_timer_t` opened and closed. Loop thread only.
final class LoopTimerQueue {
    /// Retained while scheduled; the vars go unchecked for exclusivity as in
    /// `ConnectionDeadlines` (loop thread only, never borrowed across a callout).
    @exclusivity(unchecked) private var heap = IndexedMinHeap<LoopTimerTask>()
    private let timer: LoopOwnTimer
    @exclusivity(unchecked) private var isClosed = false
    /// The due time the timer is armed for (`.max` when it is not).
    @exclusivity(unchecked) private var armedFor = UInt64.max
    @exclusivity(unchecked) private var nextOrder: UInt64 = 0
    /// While `fire()` runs its due tasks: tasks they schedule wait for its one `arm()` at the end.
    @exclusivity(unchecked) private var isFiring = false
    private let uvLoop: UnsafeMutablePointer<uv_loop_t>

    init(loop: UnsafeMutablePointer<uv_loop_t>) {
        uvLoop = loop
        timer = LoopOwnTimer(loop: loop)
        timer.setOwner(self)
    }

    /// Tasks waiting.
    var count: Int { heap.count }

    /// Schedules `task` (not scheduled yet) for `nanoseconds` from now: due at the first loop
    /// millisecond at or after that instant (`uv_hrtime`), so it never fires early, as a
    /// `uv_timer_t` started `delay` after the loop time cached when the turn began can. No delay
    /// is due at once (from a firing task: in the same pass). Returns false, leaving the task
    /// unscheduled, once the loop stops.
    func schedule(_ task: LoopTimerTask, afterNanoseconds nanoseconds: Int64) -> Bool {
        guard !isClosed, task.heapIndex < 0 else { return false }
        if nanoseconds <= 0 {
            task.due = uv_now(uvLoop)
        } else {
            let (instant, overflow) = uv_hrtime().addingReportingOverflow(UInt64(nanoseconds))
            task.due = overflow ? .max : instant / 1_000_000 + (instant % 1_000_000 > 0 ? 1 : 0)
        }
        task.order = nextOrder
        nextOrder += 1
        heap.insert(task)
        if task.due < armedFor && !isFiring { arm() }
        return true
    }

    /// Unschedules `task` if it is scheduled. The timer may still fire for it; it then finds
    /// nothing due and re-arms for the next.
    func cancel(_ task: LoopTimerTask) {
        let index = task.heapIndex
        guard index >= 0, index < heap.count, heap.entries[index] === task else { return }
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

    fileprivate func fire() {
        let now = uv_now(uvLoop)
        armedFor = .max
        isFiring = true
        // Fires what is due, in order; a task scheduled meanwhile that is due runs in this
        // pass too (as a libuv timer started with no delay from a timer callback does).
        while let first = heap.first, first.due <= now {
            cancel(first)
            first.timerFired()
        }
        isFiring = false
        if !heap.isEmpty { arm() }
    }

    private func arm() {
        guard !isClosed, let first = heap.first else { return }
        let now = uv_now(uvLoop)
        armedFor = first.due
        timer.start(after: first.due > now ? first.due - now : 0, timerQueueDidFire)
    }
}

private func timerQueueDidFire(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    LoopOwnTimer.owner(of: timer, as: LoopTimerQueue.self)?.fire()
}
