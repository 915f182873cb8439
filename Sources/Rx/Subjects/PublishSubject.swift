import Synchronization

/// A subject that sends each event to the observers subscribed at that moment.
///
/// Observers subscribing after termination get the terminal event; after `dispose()` they
/// get `RxError.disposed`.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectSubscriptionOwner {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = PublishSubject<Element>

    // Declared so the two flags share the lock's word: 48 bytes, a 64-byte malloc block.
    @usableFromInline
    let lock = RxLock(())
    /// Set by the terminal event; `stoppedError` is its error, if any. Guarded by `lock`,
    /// as are the three below.
    @usableFromInline
    @exclusivity(unchecked) var stopped = false
    @usableFromInline
    @exclusivity(unchecked) var disposed = false
    @usableFromInline
    @exclusivity(unchecked) var observers = SubjectObserverList()
    @usableFromInline
    @exclusivity(unchecked) var stoppedError: Swift.Error?

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
        var first: AnyObject?
        var rest: ContiguousArray<AnyObject>?
        switch event {
        case .next:
            lock.performLocked {
                if !disposed && !stopped {
                    first = observers.first
                    if let others = observers.rest, !others.isEmpty {
                        rest = others
                    }
                }
            }
        case .error, .completed:
            let taken: SubjectObserverList = lock.performLocked {
                if disposed || stopped { return SubjectObserverList() }
                stopped = true
                stoppedError = event.error
                return observers.takeAll()
            }
            taken.detachAll()
            first = taken.first
            rest = taken.rest
        }
        dispatch(first: first, rest: rest, event)
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
        subscribeHandler(observer.on)
    }

    @inlinable
    override func subscribeErased(_ observer: AnyObserver<Element>) -> Disposable {
        subscribeHandler(observer.observer)
    }

    @inlinable
    func subscribeHandler(_ handler: @escaping (Event<Element>) -> Void) -> Disposable {
        let subscription = OwnedSubjectSubscription(handler: handler, owner: self)
        // nil: subscribed; otherwise the event the late subscriber gets at once.
        let immediate: Event<Element>? = lock.performLocked {
            if stopped { return stoppedError.map { .error($0) } ?? .completed }
            if disposed { return .error(RxError.disposed(object: self)) }
            observers.insert(subscription)
            return nil
        }
        if let immediate {
            handler(immediate)
            return Disposables.create()
        }
        Resources.add(1)
        return subscription
    }

    @usableFromInline
    func unsubscribe(_ subscription: AnyObject) {
        let removed = lock.performLocked { observers.remove(subscription) }
        if removed {
            Resources.add(-1)
        }
    }

    /// The subject itself.
    public func asObserver() -> PublishSubject<Element> { self }

    deinit {
        // Observers still registered are released with the subject (under the lock: a
        // subscription's dispose may be inside `unsubscribe`).
        lock.performLocked { observers.takeAll() }.detachAll()
    }

    /// Removes every observer; later subscribers get `RxError.disposed`.
    public func dispose() {
        let taken: SubjectObserverList = lock.performLocked {
            disposed = true
            stoppedError = nil
            return observers.takeAll()
        }
        taken.detachAll()
    }
}
