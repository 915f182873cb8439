import Synchronization

/// A subject that sends each event to the observers subscribed at that moment.
///
/// Observers subscribing after termination get the terminal event; after `dispose()` they
/// get `RxError.disposed`.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SynchronizedUnsubscribeType {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = PublishSubject<Element>

    @usableFromInline
    let lock = RxLock(())
    /// Guarded by `lock`.
    @usableFromInline
    var observers = Bag<(Event<Element>) -> Void>()
    /// Guarded by `lock`.
    @usableFromInline
    var stoppedEvent: Event<Element>?
    /// Guarded by `lock`.
    @usableFromInline
    var disposed = false

    #if DEBUG
    private let synchronizationTracker = SynchronizationTracker()
    #endif

    /// A subject with no observers.
    @inlinable
    public override init() {
        super.init()
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool {
        lock.performLocked { !observers.isEmpty }
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        lock.performLocked { disposed }
    }

    /// Sends `event` to the current observers.
    @inlinable
    public func on(_ event: Event<Element>) {
        #if DEBUG
        trackBegin()
        defer { trackEnd() }
        #endif
        switch event {
        case .next:
            var snapshot = Bag<(Event<Element>) -> Void>()
            lock.performLocked {
                if !disposed && stoppedEvent == nil {
                    snapshot = observers
                }
            }
            dispatch(snapshot, event)
        case .error, .completed:
            var snapshot = Bag<(Event<Element>) -> Void>()
            lock.performLocked {
                if !disposed && stoppedEvent == nil {
                    stoppedEvent = event
                    snapshot = observers
                    observers.removeAll()
                }
            }
            for _ in 0..<snapshot.count { Resources.decrementTotal() }
            dispatch(snapshot, event)
        }
    }

    #if DEBUG
    @usableFromInline
    func trackBegin() { synchronizationTracker.register() }
    @usableFromInline
    func trackEnd() { synchronizationTracker.unregister() }
    #endif

    /// Subscribes `observer` to the events sent from now on.
    @inlinable
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        var terminal: Event<Element>?
        var key: BagKey?
        lock.performLocked {
            if let stoppedEvent {
                terminal = stoppedEvent
            } else if disposed {
                terminal = .error(RxError.disposed(object: self))
            } else {
                key = observers.insert(observer.on)
            }
        }
        if let key {
            Resources.incrementTotal()
            return SubscriptionDisposable(owner: self, key: key)
        }
        if let terminal {
            observer.on(terminal)
        }
        return Disposables.create()
    }

    @usableFromInline
    func synchronizedUnsubscribe(_ key: BagKey) {
        let removed = lock.performLocked { observers.removeKey(key) != nil }
        if removed {
            Resources.decrementTotal()
        }
    }

    /// The subject itself.
    public func asObserver() -> PublishSubject<Element> { self }

    /// Removes every observer; later subscribers get `RxError.disposed`.
    public func dispose() {
        let count: Int = lock.performLocked {
            disposed = true
            let count = observers.count
            observers.removeAll()
            stoppedEvent = nil
            return count
        }
        for _ in 0..<count { Resources.decrementTotal() }
    }
}
