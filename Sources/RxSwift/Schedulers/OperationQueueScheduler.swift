// Weakly linked: a program that never uses this type (the rxlive server, linked with
// --as-needed) does not load Foundation for it.
@_weakLinked import Foundation

/// Runs work as operations of an `OperationQueue`.
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
        let item = ScheduledItem(action: action, state: state)
        let box = UncheckedSendableBox(value: item)
        let operation = BlockOperation {
            let item = box.value
            if !item.isDisposed {
                item.invoke()
            }
        }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        return item
    }
}
