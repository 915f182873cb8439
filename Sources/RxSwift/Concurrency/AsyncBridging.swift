/// Carries a value into a `@Sendable` closure or through a `sending` parameter when the
/// compiler cannot see that the hand-over is safe. Each use says why it is: typically a
/// disposable (whose `dispose()` is thread-safe) or an observer (Rx serialises its events),
/// or an element handed from the Rx side to the one task that consumes it.
package struct UncheckedTransfer<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}

/// Awaits the one result of an Rx subscription in an async context.
///
/// The subscription is made when the awaiting starts. Cancelling the awaiting task disposes
/// it and throws `CancellationError` (RxSwift only disposes, which can leave the task
/// suspended forever); a result that comes later is dropped.
final class SubscriptionContinuation<Value>: @unchecked Sendable { // `lock` guards every stored property
    private let lock = RxLock(())
    private var continuation: CheckedContinuation<UncheckedTransfer<Value>, Swift.Error>?
    private var subscription: Disposable?
    private var finished = false

    /// Subscribes with `subscribe`, which must call its argument once with the result, and
    /// returns that result; the subscription is disposed if the task is cancelled first.
    static func value(subscribe: @escaping (_ resume: @escaping (Result<Value, Swift.Error>) -> Void) -> Disposable) async throws -> Value {
        let bridge = SubscriptionContinuation<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                bridge.start(continuation, subscribe: subscribe)
            }.value
        } onCancel: {
            bridge.finish(.failure(CancellationError()))
        }
    }

    private func start(_ continuation: CheckedContinuation<UncheckedTransfer<Value>, Swift.Error>, subscribe: (_ resume: @escaping (Result<Value, Swift.Error>) -> Void) -> Disposable) {
        let alreadyCancelled = lock.performLocked { () -> Bool in
            if finished { return true }
            self.continuation = continuation
            return false
        }
        if alreadyCancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        let subscription = subscribe { result in self.finish(result) }
        let keep = lock.performLocked { () -> Bool in
            if finished { return false }
            self.subscription = subscription
            return true
        }
        if !keep {
            subscription.dispose()
        }
    }

    /// Resumes the continuation with `result` once; a cancellation also disposes the subscription.
    private func finish(_ result: Result<Value, Swift.Error>) {
        let (continuation, subscription) = lock.performLocked { () -> (CheckedContinuation<UncheckedTransfer<Value>, Swift.Error>?, Disposable?) in
            if finished { return (nil, nil) }
            finished = true
            defer {
                self.continuation = nil
                self.subscription = nil
            }
            return (self.continuation, self.subscription)
        }
        if case .failure(let error) = result, error is CancellationError {
            subscription?.dispose()
        }
        switch result {
        case .success(let value):
            continuation?.resume(returning: UncheckedTransfer(value))
        case .failure(let error):
            continuation?.resume(throwing: error)
        }
    }
}
