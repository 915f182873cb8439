/// A subject that sends only its last element, and only when it completes (with the
/// completion); an error is sent alone.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, SynchronizedUnsubscribeType {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = AsyncSubject<Element>

    private let lock = RecursiveLock()
    /// Guarded by `lock`.
    private var observers = Bag<(Event<Element>) -> Void>()
    /// Guarded by `lock`.
    private var lastElement: Element?
    /// Guarded by `lock`.
    private var stoppedEvent: Event<Element>?

    #if DEBUG
    private let synchronizationTracker = SynchronizationTracker()
    #endif

    /// A subject with no element yet.
    public override init() {
        super.init()
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { lock.performLocked { !observers.isEmpty } }

    /// Keeps a `next` element; on termination sends the last element and the terminal event.
    public func on(_ event: Event<Element>) {
        #if DEBUG
        synchronizationTracker.register()
        defer { synchronizationTracker.unregister() }
        #endif
        var snapshot = Bag<(Event<Element>) -> Void>()
        var last: Element?
        lock.performLocked {
            guard stoppedEvent == nil else { return }
            switch event {
            case .next(let value):
                lastElement = value
            case .completed:
                stoppedEvent = event
                last = lastElement
                snapshot = observers
                observers.removeAll()
            case .error:
                stoppedEvent = event
                lastElement = nil
                snapshot = observers
                observers.removeAll()
            }
        }
        for _ in 0..<snapshot.count { Resources.decrementTotal() }
        if let last {
            dispatch(snapshot, .next(last))
        }
        if event.isStopEvent {
            dispatch(snapshot, event)
        }
    }

    /// Subscribes `observer`; after termination it gets the result at once.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.performLocked {
            if let stoppedEvent {
                if case .completed = stoppedEvent, let lastElement {
                    observer.on(.next(lastElement))
                }
                observer.on(stoppedEvent)
                return Disposables.create()
            }
            let key = observers.insert(observer.on)
            Resources.incrementTotal()
            return SubscriptionDisposable(owner: self, key: key)
        }
    }

    @usableFromInline
    func synchronizedUnsubscribe(_ key: BagKey) {
        let removed = lock.performLocked { observers.removeKey(key) != nil }
        if removed { Resources.decrementTotal() }
    }

    /// The subject itself.
    public func asObserver() -> AsyncSubject<Element> { self }
}
