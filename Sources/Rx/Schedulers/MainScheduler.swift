import Dispatch
import Foundation
import Synchronization

/// The application's main scheduler. It forwards everything to a pluggable host: by default
/// a serial dispatch queue scheduler (so tests work with no event loop); the server installs
/// its event loop's scheduler with `setHost(_:)`, tests may install a `TestScheduler`.
public final class MainScheduler: SchedulerType, Sendable {
    /// The main scheduler.
    public static let instance = MainScheduler()

    /// The main scheduler for work that must always be queued, never run inline (the host
    /// decides; the default host always queues).
    public static let asyncInstance = MainScheduler()

    private static let lock = RxLock(())
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var host: any SchedulerType = defaultHost
    private static let defaultHost = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.main")

    private init() {}

    /// Makes `host` run everything scheduled on `MainScheduler` from now on.
    public static func setHost(_ host: any SchedulerType) {
        lock.performLocked { self.host = host }
    }

    /// Restores the default host (a serial dispatch queue).
    public static func resetHost() {
        lock.performLocked { self.host = defaultHost }
    }

    /// The current host.
    public static var currentHost: any SchedulerType {
        lock.performLocked { host }
    }

    /// The host's current time.
    public var now: RxTime { Self.currentHost.now }

    /// Schedules `action` on the host.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        Self.currentHost.schedule(state, action: action)
    }

    /// Schedules `action` on the host after `dueTime`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        Self.currentHost.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` on the host every `period`.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        Self.currentHost.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
