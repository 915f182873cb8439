import Dispatch

/// One of the global concurrent dispatch queues, by quality of service (RxSwift's older way
/// to pick a queue; `DispatchQoS` is the current one).
public enum DispatchQueueSchedulerQOS: Sendable {
    /// The user-interactive global queue.
    case userInteractive
    /// The user-initiated global queue.
    case userInitiated
    /// The default global queue.
    case `default`
    /// The utility global queue.
    case utility
    /// The background global queue.
    case background
}

extension DispatchQueueSchedulerQOS {
    var qos: DispatchQoS {
        switch self {
        case .userInteractive: return .userInteractive
        case .userInitiated: return .userInitiated
        case .default: return .default
        case .utility: return .utility
        case .background: return .background
        }
    }
}

extension ConcurrentDispatchQueueScheduler {
    /// Schedules on the global queue of `globalConcurrentQueueQOS`.
    @available(*, deprecated, renamed: "init(qos:leeway:)")
    public convenience init(globalConcurrentQueueQOS: DispatchQueueSchedulerQOS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(qos: globalConcurrentQueueQOS.qos, leeway: leeway)
    }
}

extension SerialDispatchQueueScheduler {
    /// Schedules on a new serial queue targeting the global queue of `globalConcurrentQueueQOS`.
    @available(*, deprecated, renamed: "init(qos:internalSerialQueueName:leeway:)")
    public convenience init(globalConcurrentQueueQOS: DispatchQueueSchedulerQOS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial", leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(qos: globalConcurrentQueueQOS.qos, internalSerialQueueName: internalSerialQueueName, leeway: leeway)
    }
}
