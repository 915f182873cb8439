/// A subject that holds a current value: new observers get it first, then the later events.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, SynchronizedUnsubscribeType {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = BehaviorSubject<Element>

    /// Recursive: held while replaying the value, which may call back into the subject.
    private let lock = RecursiveLock()
    /// Guarded by `lock`.
    private var element: Element
    /// Guarded by `lock`.
    private var observers = Bag<(Event<Element>) -> Void>()
    /// Guarded by `lock`.
    private var stoppedEvent: Event<Element>?
    /// Guarded by `lock`.
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
            if case .error(let error) = stoppedEvent { throw error }
            return element
        }
    }

    /// Stores a `next` element as the current value and sends `event` to the observers.
    public func on(_ event: Event<Element>) {
        #if DEBUG
        synchronizationTracker.register()
        defer { synchronizationTracker.unregister() }
        #endif
        var snapshot = Bag<(Event<Element>) -> Void>()
        var released = 0
        lock.performLocked {
            guard !disposed && stoppedEvent == nil else { return }
            switch event {
            case .next(let value):
                element = value
                snapshot = observers
            case .error, .completed:
                stoppedEvent = event
                snapshot = observers
                released = observers.count
                observers.removeAll()
            }
        }
        for _ in 0..<released { Resources.decrementTotal() }
        dispatch(snapshot, event)
    }

    /// Sends the current value to `observer`, then the later events.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        lock.performLocked {
            if disposed {
                observer.on(.error(RxError.disposed(object: self)))
                return Disposables.create()
            }
            if let stoppedEvent {
                observer.on(stoppedEvent)
                return Disposables.create()
            }
            let key = observers.insert(observer.on)
            Resources.incrementTotal()
            observer.on(.next(element))
            return SubscriptionDisposable(owner: self, key: key)
        }
    }

    @usableFromInline
    func synchronizedUnsubscribe(_ key: BagKey) {
        let removed = lock.performLocked { observers.removeKey(key) != nil }
        if removed { Resources.decrementTotal() }
    }

    /// The subject itself.
    public func asObserver() -> BehaviorSubject<Element> { self }

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
