import Dispatch
import EventLoop
import FoundationEssentials
import Glibc
import RxSwift
import Synchronization

/// An Rx scheduler that runs work on an event loop: `schedule` through the loop's `uv_async`
/// wake-up, `scheduleRelative` on the loop's timer queue. Callable from any thread; disposing
/// scheduled work before it runs cancels it (and takes it out of the queue).
///
/// A scheduler made with `followingCurrentLoop(fallback:)` keeps work on the loop of the
/// calling thread and sends work from other threads to `fallback`: installed as
/// `MainScheduler`'s host, it lets several loops (one per core) each keep their sessions'
/// work at home.
public struct LoopScheduler: MainSchedulerHost, Sendable {
    private let loop: EventLoop?
    private let fallback: EventLoop

    /// A scheduler bound to `loop`.
    public init(loop: EventLoop) {
        self.loop = loop
        fallback = loop
    }

    private init(following fallback: EventLoop) {
        loop = nil
        self.fallback = fallback
    }

    /// A scheduler that uses the calling thread's loop when called on a loop thread, else `fallback`.
    public static func followingCurrentLoop(fallback: EventLoop) -> LoopScheduler {
        LoopScheduler(following: fallback)
    }

    /// The loop that work scheduled now from this thread goes to.
    public var targetLoop: EventLoop { loop ?? EventLoop.current ?? fallback }

    /// `targetLoop`, and whether the calling thread is its thread, with one thread look-up: a
    /// following scheduler that finds the current loop is on it (a delay's drain, twice a login).
    private var targetLoopAndPlacement: (loop: EventLoop, isOnLoop: Bool) {
        if let loop { return (loop, loop.inEventLoop) }
        if let current = EventLoop.current { return (current, true) }
        return (fallback, fallback.inEventLoop)
    }

    /// `true` on the thread of the loop work goes to from here: as `MainScheduler`'s host,
    /// this is the main thread, where `MainScheduler.instance` runs work inline.
    public var isOnHostThread: Bool {
        if let loop { return loop.inEventLoop }
        return EventLoop.current != nil
    }

    /// Wall-clock time, as RxSwift's schedulers report it.
    public var now: RxTime { Date() }

    /// Runs `action` on the target loop on a later turn (through `uv_async`).
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = LoopScheduledAction(loop: targetLoop) { action(state) }
        item.loop.execute { item.run() }
        return item
    }

    /// Runs `action` on the target loop after `dueTime` (its timer queue); `.never` never runs.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval,
                                            action: @escaping (StateType) -> Disposable) -> Disposable {
        if case .never = dueTime { return Disposables.create() }
        let (target, isOnTarget) = targetLoopAndPlacement
        let item = LoopScheduledAction(loop: target) { action(state) }
        let nanoseconds = dueTime.rxNanoseconds
        if isOnTarget {
            item.arm(afterNanoseconds: nanoseconds)
        } else {
            item.loop.execute { item.arm(afterNanoseconds: nanoseconds) }
        }
        return item
    }
}

extension EventLoop {
    /// An Rx scheduler bound to this loop (install it with `MainScheduler.setHost(loop.scheduler)`).
    public var scheduler: LoopScheduler { LoopScheduler(loop: self) }
}

/// One piece of scheduled work: runs at most once, on its loop, unless disposed first.
/// Timed work waits in the loop's timer queue as a `LoopTimerTask`: no timer handle of its own.
///
/// Not generic: the work is a closure holding the state, so that clearing it (and the object's
/// creation and destruction) looks up no generic metadata in unspecialised code.
// @unchecked Sendable: `payload` and the queue slot are touched only on the loop thread; the
// flags are atomics and the inner disposable is kept under its mutex.
private final class LoopScheduledAction: LoopTimerTask, Cancelable, @unchecked Sendable {
    /// The disposable the work returned, kept in the action (no object of its own) as a class
    /// reference: moving and dropping it are a retain and a release, not calls through the
    /// `Disposable` existential's value witnesses.
    // @unchecked Sendable: it only moves in and out under `inner`'s mutex, and Rx disposables
    // may be disposed from any thread.
    private enum Inner: @unchecked Sendable {
        case empty
        case assigned(AnyObject & Disposable)
        case disposed
    }

    let loop: EventLoop
    private var payload: (() -> Disposable)?
    private let disposed = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let inner = Mutex<Inner>(.empty)

    init(loop: EventLoop, work: @escaping () -> Disposable) {
        self.loop = loop
        payload = work
        super.init()
        Resources.add(1)
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Loop thread: queues the action on the loop's timer queue.
    func arm(afterNanoseconds nanoseconds: Int64) {
        guard !isDisposed else { return finish() }
        if !loop.schedule(self, afterNanoseconds: nanoseconds) {
            finish() // the loop is stopping: dropped, as its timers are
        }
    }

    override func timerFired() { run() }

    /// The loop stopped before the action was due: the work is released unrun.
    override func timerDropped() { finish() }

    /// Loop thread: runs the action unless disposed.
    func run() {
        guard !isDisposed, let payload else { return finish() }
        self.payload = nil
        // A `Disposables.create()` (a drain's answer) has nothing to keep or dispose.
        guard let result = disposableObject(payload()) else { return finish() }
        let kept: Bool = inner.withLock { inner in
            guard case .empty = inner else { return false }
            inner = .assigned(result)
            return true
        }
        if !kept {
            result.dispose() // disposed while the work ran
        }
        finish()
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let result: (AnyObject & Disposable)? = inner.withLock { inner in
            defer { inner = .disposed }
            if case .assigned(let result) = inner { return result }
            return nil
        }
        result?.dispose()
        if loop.inEventLoop {
            cancelOnLoop()
        } else {
            loop.execute { [self] in cancelOnLoop() }
        }
    }

    private func cancelOnLoop() {
        loop.cancel(self)
        payload = nil
        finish()
    }

    /// Drops the work and its Resources count, once.
    private func finish() {
        payload = nil
        if !finished.exchange(true, ordering: .relaxed) { Resources.add(-1) }
    }
}
