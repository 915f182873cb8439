/// A subject that holds a current value: new observers get it first, then the later events.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SubjectSubscriptionOwner {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = BehaviorSubject<Element>

    /// Guards the state below; never held while sending events.
    private let lock = RxLock(())
    /// Guarded by `lock`, as are the four below.
    private var element: Element
    private var observers = SubjectObserverList()
    /// Set by the terminal event; `stoppedError` is its error, if any.
    private var stopped = false
    private var stoppedError: Swift.Error?
    private var disposed = false

    #if DEBUG
    private let synchronizationTracker = SynchronizationTracker()
    #endif

    /// A subject whose current value is `value`.
    public init(value: Element) {
        element = value
        super.init()
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { lock.performLocked { !observers.isEmpty } }

    /// `true` once disposed.
    public var isDisposed: Bool { lock.performLocked { disposed } }

    /// The current value; throws the terminal error, or `RxError.disposed`.
    public func value() throws -> Element {
        try lock.performLocked {
            if disposed { throw RxError.disposed(object: self) }
            if let stoppedError { throw stoppedError }
            return element
        }
    }

    /// Stores a `next` element as the current value and sends `event` to the observers.
    public func on(_ event: Event<Element>) {
        #if DEBUG
        synchronizationTracker.register()
        defer { synchronizationTracker.unregister() }
        #endif
        var snapshot = SubjectObserverList()
        var terminated = false
        lock.performLocked {
            guard !disposed && !stopped else { return }
            switch event {
            case .next(let value):
                element = value
                snapshot = observers
            case .error(let error):
                stopped = true
                stoppedError = error
                snapshot = observers.takeAll()
                terminated = true
            case .completed:
                stopped = true
                snapshot = observers.takeAll()
                terminated = true
            }
        }
        if terminated {
            snapshot.detachAll()
        }
        dispatch(first: snapshot.first, rest: snapshot.rest, event)
    }

    /// Sends the current value to `observer`, then the later events.
    ///
    /// The value is sent after the lock is released, so the observer may call back into the
    /// subject; events sent meanwhile (by it or by other threads) follow the value in order.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let start: BehaviorStart<Element> = lock.performLocked {
            if disposed {
                return .disposed
            }
            if stopped {
                return .terminated(stoppedError.map { .error($0) } ?? .completed)
            }
            let gate = SubscriptionGate(observer.on)
            let subscription = OwnedSubjectSubscription(handler: gate.on, owner: self)
            observers.insert(subscription)
            Resources.add(1)
            return .live(element, gate, subscription)
        }
        switch start {
        case .disposed:
            observer.on(.error(RxError.disposed(object: self)))
            return Disposables.create()
        case .terminated(let terminal):
            observer.on(terminal)
            return Disposables.create()
        case .live(let value, let gate, let subscription):
            observer.on(.next(value))
            gate.open()
            return subscription
        }
    }

    @usableFromInline
    func unsubscribe(_ subscription: AnyObject) {
        let removed = lock.performLocked { observers.remove(subscription) }
        if removed { Resources.add(-1) }
    }

    /// The subject itself.
    public func asObserver() -> BehaviorSubject<Element> { self }

    /// Removes every observer; later subscribers get `RxError.disposed`.
    public func dispose() {
        let taken: SubjectObserverList = lock.performLocked {
            disposed = true
            stoppedError = nil
            return observers.takeAll()
        }
        taken.detachAll()
    }

    deinit {
        // Observers still registered are released with the subject (under the lock: a
        // subscription's dispose may be inside `unsubscribe`).
        lock.performLocked { observers.takeAll() }.detachAll()
    }
}

/// How a new observer of a `BehaviorSubject` starts, decided under the subject's lock.
private enum BehaviorStart<Element> {
    case disposed
    case terminated(Event<Element>)
    case live(Element, SubscriptionGate<Element>, SubjectSubscription<Element>)
}
