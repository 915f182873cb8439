import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A time interval for schedulers (as in RxSwift).
public typealias RxTimeInterval = DispatchTimeInterval

/// An absolute time for schedulers (as in RxSwift).
public typealias RxTime = Date

/// Runs units of work now (or as soon as it can).
public protocol ImmediateSchedulerType {
    /// Schedules `action` with `state`.
    ///
    /// - returns: A disposable that cancels the action if it has not run yet.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// Runs units of work at times.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's notion of the current time.
    var now: RxTime { get }

    /// Schedules `action` to run after `dueTime`.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable

    /// Schedules `action` every `period`, first after `startAfter`; each run gets the state
    /// the previous run returned.
    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling built from `scheduleRelative` (schedulers with a native periodic
    /// timer override it).
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let schedule = SchedulePeriodicRecursive(scheduler: self, startAfter: startAfter, period: period, action: action, state: state)
        return schedule.start()
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds.
    public var rxSeconds: TimeInterval {
        switch self {
        case .seconds(let value): return TimeInterval(value)
        case .milliseconds(let value): return TimeInterval(value) / 1_000
        case .microseconds(let value): return TimeInterval(value) / 1_000_000
        case .nanoseconds(let value): return TimeInterval(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }

    /// The interval in nanoseconds (saturating).
    public var rxNanoseconds: Int64 {
        switch self {
        case .seconds(let value): return Int64(value).multipliedReportingOverflow(by: 1_000_000_000).overflow ? .max : Int64(value) * 1_000_000_000
        case .milliseconds(let value): return Int64(value).multipliedReportingOverflow(by: 1_000_000).overflow ? .max : Int64(value) * 1_000_000
        case .microseconds(let value): return Int64(value).multipliedReportingOverflow(by: 1_000).overflow ? .max : Int64(value) * 1_000
        case .nanoseconds(let value): return Int64(value)
        case .never: return .max
        @unknown default: return .max
        }
    }
}

extension Date {
    /// `self` moved by `interval`.
    public func addingDispatchInterval(_ interval: DispatchTimeInterval) -> Date {
        addingTimeInterval(interval.rxSeconds)
    }
}

/// Runs a periodic action by rescheduling itself (for schedulers without native periodic timers).
private final class SchedulePeriodicRecursive<State, Scheduler: SchedulerType> {
    private let scheduler: Scheduler
    private let startAfter: RxTimeInterval
    private let period: RxTimeInterval
    private let action: (State) -> State
    /// Only touched by the scheduled runs, which never overlap.
    private var state: State

    init(scheduler: Scheduler, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (State) -> State, state: State) {
        self.scheduler = scheduler
        self.startAfter = startAfter
        self.period = period
        self.action = action
        self.state = state
    }

    func start() -> Disposable {
        scheduler.scheduleRecursive((), dueTime: startAfter) { _, recurse in
            self.state = self.action(self.state)
            recurse((), self.period)
        }
    }
}
