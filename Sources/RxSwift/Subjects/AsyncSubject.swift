/// A subject that sends only its last element, and only when it completes (with the
/// completion); an error is sent alone.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, SubjectSubscriptionOwner {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = AsyncSubject<Element>

    private let lock = RecursiveLock()
    /// Guarded by `lock`, as are the ones below.
    private var observers = SubjectObserverList()
    private var lastElement: Element?
    /// Set by the terminal event; `stoppedError` is its error, if any.
    private var stopped = false
    private var stoppedError: Swift.Error?

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
        var snapshot = SubjectObserverList()
        var last: Element?
        lock.performLocked {
            guard !stopped else { return }
            switch event {
            case .next(let value):
                lastElement = value
            case .completed:
                stopped = true
                last = lastElement
                snapshot = observers.takeAll()
            case .error(let error):
                stopped = true
                stoppedError = error
                lastElement = nil
                snapshot = observers.takeAll()
            }
        }
        snapshot.detachAll()
        if let last {
            dispatch(first: snapshot.first, rest: snapshot.rest, Event.next(last))
        }
        if event.isStopEvent {
            dispatch(first: snapshot.first, rest: snapshot.rest, event)
        }
    }

    /// Subscribes `observer`; after termination it gets the result at once (sent after the
    /// lock is released, so the observer may call back into the subject).
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        var result: [Event<Element>] = []
        let subscription: Disposable = lock.performLocked {
            if stopped {
                if let stoppedError {
                    result = [.error(stoppedError)]
                } else {
                    result = lastElement.map { [.next($0), .completed] } ?? [.completed]
                }
                return Disposables.create()
            }
            let subscription = OwnedSubjectSubscription(handler: observer.on, owner: self)
            observers.insert(subscription)
            Resources.add(1)
            return subscription
        }
        for event in result {
            observer.on(event)
        }
        return subscription
    }

    @usableFromInline
    func unsubscribe(_ subscription: AnyObject) {
        let removed = lock.performLocked { observers.remove(subscription) }
        if removed { Resources.add(-1) }
    }

    /// The subject itself.
    public func asObserver() -> AsyncSubject<Element> { self }

    deinit {
        // Observers still registered are released with the subject (under the lock: a
        // subscription's dispose may be inside `unsubscribe`).
        lock.performLocked { observers.takeAll() }.detachAll()
    }
}
