extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes to `second` once this `Completable` completes (an error skips it).
    ///
    /// - parameter second: The `Single` that follows.
    /// - returns: The `Single` `second`, after this `Completable`.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: CompletableAndThen(completable: primitiveSequence.asObservable(), second: second.asObservable()))
    }

    /// Subscribes to `second` once this `Completable` completes (an error skips it).
    ///
    /// - parameter second: The `Maybe` that follows.
    /// - returns: The `Maybe` `second`, after this `Completable`.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: CompletableAndThen(completable: primitiveSequence.asObservable(), second: second.asObservable()))
    }

    /// Subscribes to `second` once this `Completable` completes (an error skips it).
    ///
    /// - parameter second: The `Completable` that follows.
    /// - returns: A `Completable` that completes when both have.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: CompletableAndThen(completable: primitiveSequence.asObservable(), second: second.asObservable()))
    }

    /// Subscribes to `second` once this `Completable` completes (an error skips it).
    ///
    /// - parameter second: The sequence that follows.
    /// - returns: The sequence `second`, after this `Completable`.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        CompletableAndThen(completable: primitiveSequence.asObservable(), second: second)
    }
}

/// Observes the `Completable`; on its completion swaps its subscription for one to `second`,
/// whose events go straight downstream.
private final class CompletableAndThenSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Never

    private let second: Observable<Observer.Element>
    /// The `Completable`'s subscription, then `second`'s.
    private let subscription = SerialDisposable()

    init(second: Observable<Observer.Element>, observer: Observer, cancel: SinkDisposer) {
        self.second = second
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ completable: Observable<Never>) -> Disposable {
        let first = SingleAssignmentDisposable()
        subscription.disposable = first
        first.setDisposable(completable.subscribe(self))
        return subscription
    }

    func on(_ event: Event<Never>) {
        switch event {
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            let next = SingleAssignmentDisposable()
            subscription.disposable = next
            next.setDisposable(second.subscribe(forwarder()))
        }
    }
}

private final class CompletableAndThen<Element>: Producer<Element> {
    private let completable: Observable<Never>
    private let second: Observable<Element>

    init(completable: Observable<Never>, second: Observable<Element>) {
        self.completable = completable
        self.second = second
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = CompletableAndThenSink(second: second, observer: observer, cancel: cancel)
        let subscription = sink.run(completable)
        return (sink: sink, subscription: subscription)
    }
}
