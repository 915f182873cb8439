import Foundation
import RxSwift

/// Runs work as operations of an `OperationQueue`. It lives in RxCocoa, beside the other
/// Foundation types' extensions, so that RxSwift itself links only FoundationEssentials.
public final class OperationQueueScheduler: ImmediateSchedulerType, @unchecked Sendable { // OperationQueue is thread-safe; properties are immutable
    /// The queue.
    public let operationQueue: OperationQueue
    /// The priority of the operations.
    public let queuePriority: Operation.QueuePriority

    /// Schedules on `operationQueue` with `queuePriority`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// Adds an operation running `action` unless disposed first.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let work = SingleAssignmentDisposable()
        let job = ScheduledJob { if !work.isDisposed { work.setDisposable(action(state)) } }
        let operation = BlockOperation { job.run() }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        return work
    }
}

/// The action an operation runs; the queue runs it on one of its threads once, and
/// `SingleAssignmentDisposable` makes a dispose from another thread safe.
private struct ScheduledJob: @unchecked Sendable {
    let run: () -> Void
}
