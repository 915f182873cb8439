/// Subscribes an observer to a source again each time it is asked to (for `retry`).
///
/// A request made while a subscription is being made (a source that fails at once) is run by
/// the loop already running instead of recursively, so a source that keeps failing
/// synchronously does not grow the stack. Each new subscription disposes the previous one.
final class Resubscription<Element> {
    private let source: Observable<Element>
    /// The current subscription; dispose it to stop resubscribing.
    let subscription = SerialDisposable()
    private let lock = RxLock(())
    /// Guarded by `lock`: a loop is subscribing.
    private var running = false
    /// Guarded by `lock`: a subscription was asked for and not made yet.
    private var pending = false

    init(source: Observable<Element>) {
        self.source = source
    }

    /// Subscribes `observer` to the source now, or right after the subscription in progress.
    func request<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        let startsLoop: Bool = lock.performLocked {
            pending = true
            if running { return false }
            running = true
            return true
        }
        guard startsLoop else { return }
        while takePending() {
            let next = SingleAssignmentDisposable()
            subscription.disposable = next
            next.setDisposable(source.subscribe(observer))
        }
    }

    /// Disposes the current subscription (its source failed) and keeps resubscribing possible.
    func disposeCurrent() {
        subscription.disposable = Disposables.create()
    }

    /// Takes the pending request, or ends the loop when there is none or it was disposed.
    private func takePending() -> Bool {
        let disposed = subscription.isDisposed
        return lock.performLocked {
            if pending && !disposed {
                pending = false
                return true
            }
            running = false
            return false
        }
    }
}
