#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The main thread for `subscribe(on:)`, as RxSwift's `ConcurrentMainScheduler`: `schedule`
/// runs the action at once whenever it is called on the main thread (the host's thread, see
/// `MainScheduler.setHost(_:)`), and queues it there otherwise; timed work goes to
/// `MainScheduler.instance`. For `observe(on:)`, `MainScheduler` keeps the order better.
public final class ConcurrentMainScheduler: SchedulerType, Sendable {
    /// Seconds, as in RxSwift.
    public typealias TimeInterval = Double
    /// Absolute time, as in RxSwift.
    public typealias Time = Date

    private let mainScheduler: MainScheduler

    private init(mainScheduler: MainScheduler) {
        self.mainScheduler = mainScheduler
    }

    /// The scheduler.
    public static let instance = ConcurrentMainScheduler(mainScheduler: MainScheduler.instance)

    /// The main scheduler's current time.
    public var now: RxTime { mainScheduler.now }

    /// Runs `action` now on the main thread, or queues it there from other threads.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let host = MainThreadHost.current
        if host.mayRunInline {
            return action(state)
        }
        return host.enqueue(state, countedIn: nil, action: action)
    }

    /// Schedules `action` on the main thread after `dueTime`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        mainScheduler.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` on the main thread every `period`.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        mainScheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
