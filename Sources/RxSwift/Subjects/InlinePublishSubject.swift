/// A subject that sends each event to the observers subscribed at that moment, as a
/// `PublishSubject` does, and keeps its first observer in itself: that observer's
/// subscription is the subject (its `dispose()` unsubscribes that observer), so a subject with
/// one observer, a session's input feeding its view model, is one object where a
/// `PublishSubject` and its subscription are two: 48 bytes in a 64-byte malloc block against
/// two 48-byte blocks (`RxLayoutTests`).
///
/// A second observer or a terminal event moves the observers to a `PublishSubject` kept in
/// `shared`, which sends every event from then on and tells late subscribers how it ended.
/// The inline place is used once, so a repeated `dispose()` of the first subscription never
/// unsubscribes a later observer. `dispose()` being that subscription's, the subject as a
/// whole is not disposable: a type for the library's own modules (`package`), not public API.
@usableFromInline
package final class InlinePublishSubject<Element>: Observable<Element>, ObserverType, Disposable {
    @usableFromInline
    let lock = RxLock(())
    /// The inline place has been given to an observer. Guarded by `lock`, as are the two below.
    @usableFromInline
    @exclusivity(unchecked) var firstTaken = false
    /// The first observer while it is subscribed and the observers are not shared.
    @usableFromInline
    @exclusivity(unchecked) var first: ((Event<Element>) -> Void)?
    /// Every observer, once a second one subscribed or the subject ended.
    @usableFromInline
    @exclusivity(unchecked) var shared: SharedObservers?

    /// The subject the observers moved to, and the first observer's subscription to it.
    @usableFromInline
    final class SharedObservers {
        @usableFromInline
        let subject = PublishSubject<Element>()
        /// Guarded by the owner's lock.
        @usableFromInline
        @exclusivity(unchecked) var firstSubscription: (AnyObject & Disposable)?

        @inlinable
        init() {}
    }

    /// A subject with no observers.
    @inlinable
    package override init() {
        super.init()
    }

    /// Sends `event` to the current observers.
    @inlinable
    package func on(_ event: Event<Element>) {
        switch event {
        case .next:
            // Read under the lock, called outside it: an observer may feed the subject again.
            let (handler, subject) = lock.performLocked { (first, shared?.subject) }
            handler?(event)
            subject?.on(event)
        case .error, .completed:
            let subject = lock.performLocked { share().subject }
            subject.on(event)
        }
    }

    /// Subscribes `observer` to the events sent from now on (also what `subscribeErased`
    /// does by default).
    @inlinable
    package override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscribeHandler(observer.on) ?? Disposables.create()
    }

    @inlinable
    override func subscribeErasedObject(_ observer: AnyObserver<Element>) -> (AnyObject & Disposable)? {
        subscribeHandler(observer.observer)
    }

    /// The subscription: the subject itself for the first observer, else the shared subject's
    /// (`nil` when that subject had already ended and told the handler so).
    @inlinable
    func subscribeHandler(_ handler: @escaping (Event<Element>) -> Void) -> (AnyObject & Disposable)? {
        let subject: PublishSubject<Element>? = lock.performLocked {
            if !firstTaken {
                firstTaken = true
                first = handler
                return nil
            }
            return share().subject
        }
        guard let subject else {
            Resources.add(1)
            return self
        }
        return subject.subscribeHandler(handler)
    }

    /// Moves the observers to `shared`, the first one's subscription with them (called
    /// holding `lock`; the new subject has not ended, so subscribing calls no handler).
    @usableFromInline
    func share() -> SharedObservers {
        if let shared { return shared }
        let made = SharedObservers()
        if let first {
            made.firstSubscription = made.subject.subscribeHandler(first)
            self.first = nil
            Resources.add(-1) // counted from now on as the shared subject's subscription
        }
        firstTaken = true
        shared = made
        return made
    }

    /// Unsubscribes the first observer: the subscription it was given is the subject.
    @usableFromInline
    package func dispose() {
        // Taken out under the lock and released after it: the handler's release may free an
        // observer whose teardown reaches this subject.
        let (handler, subscription) = lock.performLocked {
            let taken = (first, shared?.firstSubscription)
            first = nil
            shared?.firstSubscription = nil
            return taken
        }
        if handler != nil {
            Resources.add(-1)
        }
        subscription?.dispose()
    }

    deinit {
        if first != nil {
            Resources.add(-1)
        }
    }
}
