/// An observable that is also an observer (or can be turned into one).
public protocol SubjectType: ObservableType {
    /// The observer side of the subject.
    associatedtype Observer: ObserverType

    /// The observer side of the subject.
    func asObserver() -> Observer
}

/// Removes one observer from a subject when disposed.
@usableFromInline
protocol SynchronizedUnsubscribeType: AnyObject {
    func synchronizedUnsubscribe(_ key: BagKey)
}

/// The subscription a subject hands out: disposing it removes the observer once.
@usableFromInline
final class SubscriptionDisposable: Disposable {
    @usableFromInline
    let key: BagKey
    /// Cleared by the first `dispose()`; races are harmless because unsubscribing is idempotent.
    @usableFromInline
    weak var owner: SynchronizedUnsubscribeType?

    @inlinable
    init(owner: SynchronizedUnsubscribeType, key: BagKey) {
        self.owner = owner
        self.key = key
    }

    @inlinable
    func dispose() {
        let owner = self.owner
        self.owner = nil
        owner?.synchronizedUnsubscribe(key)
    }
}
