import Synchronization

/// The observer of `subscribe(onNext:onError:onCompleted:onDisposed:)`: holds the closures
/// itself (one object, one hop per event) and stops at the first terminal event, after which
/// it disposes `disposable` (which runs `onDisposed`).
@usableFromInline
final class SubscribeObserver<Element> {
    @usableFromInline
    let onNext: ((Element) -> Void)?
    @usableFromInline
    let onError: ((Swift.Error) -> Void)?
    @usableFromInline
    let onCompleted: (() -> Void)?
    @usableFromInline
    let disposable: Disposable
    /// The subscription's call stack for `Hooks.defaultErrorHandler` (empty unless recorded).
    @usableFromInline
    let callStack: [String]
    @usableFromInline
    let isStopped = Atomic<Bool>(false)

    @inlinable
    init(onNext: ((Element) -> Void)?, onError: ((Swift.Error) -> Void)?, onCompleted: (() -> Void)?, disposable: Disposable) {
        self.callStack = Hooks.subscriptionCallStack()
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.disposable = disposable
        Resources.add(1)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            if !isStopped.load(ordering: .acquiring) {
                onNext?(value)
            }
        case .error(let error):
            if !isStopped.exchange(true, ordering: .acquiringAndReleasing) {
                if let onError {
                    onError(error)
                } else {
                    Hooks.defaultErrorHandler(callStack, error)
                }
                disposable.dispose()
            }
        case .completed:
            if !isStopped.exchange(true, ordering: .acquiringAndReleasing) {
                onCompleted?()
                disposable.dispose()
            }
        }
    }

    deinit {
        Resources.add(-1)
    }
}
