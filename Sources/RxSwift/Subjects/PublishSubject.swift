import Synchronization

/// A subject that sends each event to the observers subscribed at that moment.
///
/// Observers subscribing after termination get the terminal event; after `dispose()` they
/// get `RxError.disposed`.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SubjectSubscriptionOwner {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = PublishSubject<Element>

    // The flags share the lock's word, and the terminal error is kept in the observer list's
    // place (empty once stopped): 40 bytes (plus the debug tracker), a 48-byte malloc block
    // (`RxLayoutTests`); a session has one per input.
    @usableFromInline
    let lock = RxLock(())
    /// Set by the terminal event. Guarded by `lock`, as are the two below.
    @usableFromInline
    @exclusivity(unchecked) var stopped = false
    @usableFromInline
    @exclusivity(unchecked) var disposed = false
    /// The observers while neither stopped nor disposed. Once stopped by an error, `first`
    /// holds a `SubjectTerminalError` with it, until `dispose()`.
    @usableFromInline
    @exclusivity(unchecked) var observers = SubjectObserverList()

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
        lock.performLocked { !stopped && !disposed && !observers.isEmpty }
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
            // The snapshot comes back from the locked closure as a value (not through captured
            // variables), so `dispatch` can reach the observers without retaining them again.
            let snapshot: SubjectObserverList = lock.performLocked {
                if disposed || stopped { return SubjectObserverList() }
                return observers
            }
            dispatch(first: snapshot.first, rest: snapshot.rest, event)
        case .error, .completed:
            let taken: SubjectObserverList = lock.performLocked {
                if disposed || stopped { return SubjectObserverList() }
                stopped = true
                let taken = observers.takeAll()
                if let error = event.error {
                    observers.first = SubjectTerminalError(error)
                }
                return taken
            }
            taken.detachAll()
            dispatch(first: taken.first, rest: taken.rest, event)
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
        subscribeHandler(observer.on) ?? Disposables.create()
    }

    @inlinable
    override func subscribeErased(_ observer: AnyObserver<Element>) -> Disposable {
        subscribeHandler(observer.observer) ?? Disposables.create()
    }

    @inlinable
    override func subscribeErasedObject(_ observer: AnyObserver<Element>) -> (AnyObject & Disposable)? {
        subscribeHandler(observer.observer)
    }

    /// The subscription, or `nil` when the subject had already ended.
    @inlinable
    func subscribeHandler(_ handler: @escaping (Event<Element>) -> Void) -> (AnyObject & Disposable)? {
        let subscription = OwnedSubjectSubscription(handler: handler, owner: self)
        // A non-generic verdict: an `Event<Element>?` here would cost unspecialised code two
        // metadata look-ups (`Event<Element>` and its Optional) on every subscription.
        let late: SubjectLateSubscriber = lock.performLocked {
            // As RxSwift: a disposed subject forgets how it ended.
            if disposed { return .disposed }
            if stopped { return terminalVerdict }
            observers.insert(subscription)
            return .subscribed
        }
        if case .subscribed = late {
            Resources.add(1)
            return subscription
        }
        sendEnding(late, to: handler)
        return nil
    }

    /// Sends a late subscriber its ending; kept out of line so that the subscribing path
    /// does not look up `Event<Element>` metadata for a temporary it does not build.
    @inline(never)
    @usableFromInline
    func sendEnding(_ late: SubjectLateSubscriber, to handler: (Event<Element>) -> Void) {
        switch late {
        case .subscribed:
            break
        case .disposed:
            handler(.error(RxError.disposed(object: self)))
        case .completed:
            handler(.completed)
        case .failed(let error):
            handler(.error(error))
        }
    }

    @usableFromInline
    func unsubscribe(_ subscription: AnyObject) {
        let removed = lock.performLocked { !stopped && !disposed && observers.remove(subscription) }
        if removed {
            Resources.add(-1)
        }
    }

    /// How a subscriber that comes once the subject stopped ends (called holding `lock`).
    @usableFromInline
    var terminalVerdict: SubjectLateSubscriber {
        if let box = observers.first {
            return .failed(unsafeDowncast(box, to: SubjectTerminalError.self).error)
        }
        return .completed
    }

    /// The subject itself.
    public func asObserver() -> PublishSubject<Element> { self }

    deinit {
        // Observers still registered are released with the subject.
        takeObservers().detachAll()
    }

    /// Removes every observer; later subscribers get `RxError.disposed`.
    public func dispose() {
        takeObservers().detachAll()
    }

    /// Marks the subject disposed and takes its observers out (under the lock: a
    /// subscription's dispose may be inside `unsubscribe`).
    private func takeObservers() -> SubjectObserverList {
        lock.performLocked {
            let taken = observers.takeAll()
            let wasLive = !stopped && !disposed
            disposed = true
            return wasLive ? taken : SubjectObserverList()
        }
    }
}

/// What `PublishSubject.subscribeHandler` decided under the lock.
@usableFromInline
enum SubjectLateSubscriber {
    case subscribed
    case disposed
    case completed
    case failed(Swift.Error)
}

/// The error a stopped `PublishSubject` keeps in its empty observer list.
@usableFromInline
final class SubjectTerminalError {
    @usableFromInline
    let error: Swift.Error

    @usableFromInline
    init(_ error: Swift.Error) {
        self.error = error
    }
}
