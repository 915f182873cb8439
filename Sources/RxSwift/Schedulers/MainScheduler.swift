import CRxResources
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A scheduler that can stand in for the main thread (see `MainScheduler.setHost(_:)`): it
/// says whether the calling thread is the one its work runs on, so `MainScheduler.instance`
/// may run work inline there, as RxSwift's does on the main thread.
public protocol MainSchedulerHost: SchedulerType {
    /// `true` when called on the thread this host runs its work on.
    var isOnHostThread: Bool { get }
}

/// The application's main thread as a scheduler, as RxSwift's `MainScheduler`: `schedule`
/// runs the action at once when called on the main thread with no main-thread work of this
/// scheduler pending or running (a counter per scheduler, like RxSwift's `numberEnqueued`),
/// and queues it otherwise; `asyncInstance` always queues. Each `MainScheduler()` counts its
/// own work, as in RxSwift, so work one queued (a Driver's, say) does not stop another from
/// running inline.
///
/// Without a host, the main thread is the process's: work goes to `DispatchQueue.main`, so
/// something must drive it (`dispatchMain()`, a run loop, `toBlocking()` on the main thread).
/// A server installs its event loop with `setHost(_:)`: the loop thread is then the main
/// thread. A host that is not a `MainSchedulerHost` (a `TestScheduler` in tests) has no
/// thread: everything is handed to it and nothing runs inline. With a host that follows the
/// calling thread's loop (several loops, one per core), each loop thread is a main thread
/// for the work scheduled from it: keep a sequence observed on `MainScheduler` on one loop.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable { // only immutable state; the slot locks itself
    /// The main scheduler.
    public static let instance = MainScheduler(countsOnHost: ())

    /// The main scheduler for work that must always be queued, never run inline.
    public static let asyncInstance: SerialDispatchQueueScheduler = MainAsyncScheduler()

    /// This scheduler's work queued or running inline; `nil` for `instance`, which counts on
    /// the host (a new host starts from zero).
    private let ownPending: PendingMainWork?

    /// A main scheduler on the shared host, counting its own pending work (as RxSwift's
    /// `MainScheduler()`, which `SharingScheduler` makes one of for each shared sequence).
    public init() {
        ownPending = PendingMainWork()
        super.init(serialQueue: DispatchQueue.main)
    }

    /// `instance`, whose count is the host's.
    private init(countsOnHost: Void) {
        ownPending = nil
        super.init(serialQueue: DispatchQueue.main)
    }

    /// Stops the program (with `errorMessage`) unless called on the main thread (the host's
    /// thread; always passes with a host that has no thread).
    public class func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        if !MainThreadHost.current.passesMainThreadCheck {
            rxFatalError(errorMessage ?? "Executing on background thread. Please use `MainScheduler.instance.schedule` to schedule work on main thread.")
        }
    }

    /// Stops the program (with `errorMessage`) unless called on the main thread (the host's
    /// thread; always passes with a host that has no thread).
    public class func ensureRunningOnMainThread(errorMessage: String? = nil) {
        if !MainThreadHost.current.passesMainThreadCheck {
            rxFatalError(errorMessage ?? "Running on background thread.")
        }
    }

    /// Makes `host` the main thread from now on: everything scheduled on the main schedulers
    /// goes to it.
    public static func setHost(_ host: any SchedulerType) {
        MainThreadHost.install(MainThreadHost(host: host))
    }

    /// Restores the default host: the process's main thread (`DispatchQueue.main`).
    public static func resetHost() {
        MainThreadHost.install(MainThreadHost(host: nil))
    }

    /// The current host (`asyncInstance` when none is installed).
    public static var currentHost: any SchedulerType {
        MainThreadHost.current.host ?? asyncInstance
    }

    /// The host's current time.
    public override var now: RxTime {
        MainThreadHost.current.now
    }

    override var runsOnRealClock: Bool {
        MainThreadHost.currentRunsOnRealClock
    }

    override func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let host = MainThreadHost.current
        let pending = ownPending ?? host.pending
        let previouslyEnqueued = pending.count.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if previouslyEnqueued == 0 && host.mayRunInline {
            let disposable = action(state)
            pending.count.wrappingSubtract(1, ordering: .releasing)
            return disposable
        }
        return host.enqueue(state, countedIn: pending, action: action)
    }

    override func scheduleRelativeInternal<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        MainThreadHost.current.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` on the main thread every `period`.
    public override func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        MainThreadHost.current.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}

/// `MainScheduler.asyncInstance`: the main thread, always queued.
private final class MainAsyncScheduler: SerialDispatchQueueScheduler, @unchecked Sendable { // no state of its own
    init() {
        super.init(serialQueue: DispatchQueue.main)
    }

    override var now: RxTime {
        MainThreadHost.current.now
    }

    override var runsOnRealClock: Bool {
        MainThreadHost.currentRunsOnRealClock
    }

    override func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        MainThreadHost.current.enqueue(state, countedIn: nil, action: action)
    }

    override func scheduleRelativeInternal<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        MainThreadHost.current.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    override func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        MainThreadHost.current.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}

/// What the main schedulers run on: an installed host, or `DispatchQueue.main`. Each install
/// makes a new one, with its own count of pending work, so work a stopped host never ran
/// cannot keep the next host from running work inline.
// @unchecked Sendable: immutable apart from the atomic counter; hosts are schedulers, which
// are callable from any thread.
final class MainThreadHost: @unchecked Sendable {
    let host: (any SchedulerType)?
    /// `host` reached through an object (itself, or a `HostOfValue` for a struct such as an
    /// event loop's scheduler): this existential is copied with a retain, where copying `host`
    /// went through its type's value witnesses (about 160 instructions per time read or timer
    /// scheduled).
    private let hostObject: (any SchedulerType & AnyObject)?
    private let threadOwner: (any MainSchedulerHost)?
    /// Whether the host keeps the real clock (`SchedulerClock`): `DispatchQueue.main` without one.
    let runsOnRealClock: Bool
    /// Work of `MainScheduler.instance` queued on this host or running inline, not finished.
    let pending = PendingMainWork()
    private let mainQueue = DispatchQueueConfiguration(queue: DispatchQueue.main, leeway: .nanoseconds(0))

    init(host: (any SchedulerType)?) {
        self.host = host
        if let host {
            hostObject = Self.object(reaching: host)
        } else {
            hostObject = nil
        }
        threadOwner = host as? any MainSchedulerHost
        runsOnRealClock = host.map(SchedulerClock.isReal) ?? true
    }

    /// `host` itself when it is an object, else an object holding it (the existential opened).
    private static func object<Host: SchedulerType>(reaching host: Host) -> any SchedulerType & AnyObject {
        host as? any SchedulerType & AnyObject ?? HostOfValue(host)
    }

    /// The host's current time, or the clock's without a host.
    var now: RxTime {
        hostObject?.now ?? Date()
    }

    private static let slot = Mutex(MainThreadHost(host: nil))

    /// The host installed now.
    static var current: MainThreadHost { slot.withLock { $0 } }

    /// Whether the host installed now keeps the real clock: read under the lock, with no
    /// retain of the host as `current` makes.
    static var currentRunsOnRealClock: Bool { slot.withLock { $0.runsOnRealClock } }

    static func install(_ host: MainThreadHost) {
        slot.withLock { $0 = host }
    }

    /// `true` on the thread work runs on, where `MainScheduler.instance` may run work inline:
    /// the host's thread, or the process's main thread without a host; never for a host
    /// without a thread (a virtual time scheduler gets all the work).
    var mayRunInline: Bool {
        guard host != nil else { return rx_is_main_thread() != 0 }
        return threadOwner?.isOnHostThread ?? false
    }

    /// `true` where `ensureRunningOnMainThread` passes: as `mayRunInline`, but everywhere for
    /// a host without a thread.
    var passesMainThreadCheck: Bool {
        guard host != nil else { return rx_is_main_thread() != 0 }
        return threadOwner?.isOnHostThread ?? true
    }

    /// Queues `action` (never inline); work `countedIn` a count leaves it once it ran or was
    /// skipped.
    func enqueue<StateType>(_ state: StateType, countedIn pending: PendingMainWork?, action: @escaping (StateType) -> Disposable) -> Disposable {
        let work = CountedWork(state: state, action: action, countedIn: pending)
        let box = UncheckedSendableBox(value: work)
        let run: (()) -> Disposable = { _ in
            box.value.run()
            return Disposables.create()
        }
        if let hostObject {
            _ = hostObject.schedule((), action: run)
        } else {
            DispatchQueue.main.async {
                box.value.run()
            }
        }
        return work
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let hostObject {
            return hostObject.scheduleRelative(state, dueTime: dueTime, action: action)
        }
        return mainQueue.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        if let hostObject {
            return hostObject.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
        }
        return mainQueue.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}

/// A host that is a value, held by an object: its calls are made through its own type on the
/// stored value, with no copy of it.
private final class HostOfValue<Host: SchedulerType>: SchedulerType, @unchecked Sendable {  // immutable; hosts are callable from any thread
    let host: Host

    init(_ host: Host) { self.host = host }

    var now: RxTime { host.now }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        host.schedule(state, action: action)
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        host.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        host.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}

/// Work queued on the main thread: runs once unless disposed first; either way it leaves
/// the pending-work count once it ran or was skipped.
private final class CountedWork<StateType>: Cancelable {
    private let state: StateType
    private let action: (StateType) -> Disposable
    private let countedIn: PendingMainWork?
    private let result = SingleAssignmentDisposable()

    init(state: StateType, action: @escaping (StateType) -> Disposable, countedIn: PendingMainWork?) {
        self.state = state
        self.action = action
        self.countedIn = countedIn
        Resources.add(1)
    }

    var isDisposed: Bool { result.isDisposed }

    /// On the main thread.
    func run() {
        if !result.isDisposed {
            result.setDisposable(action(state))
        }
        countedIn?.count.wrappingSubtract(1, ordering: .releasing)
    }

    func dispose() {
        result.dispose()
    }

    deinit {
        Resources.add(-1)
    }
}

/// A main scheduler's work queued on the main thread or running inline, not yet finished.
final class PendingMainWork: Sendable {
    let count = Atomic<Int>(0)
}
