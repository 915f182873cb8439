extension ObservableType {
    /// Turns every event of the source, its termination included, into an element; the
    /// result then completes.
    ///
    /// - returns: A sequence of the source's events.
    public func materialize() -> Observable<Event<Element>> {
        Materialize(source: asObservable())
    }
}

private final class MaterializeSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Event<SourceElement> {
    func on(_ event: Event<SourceElement>) {
        forwardOn(.next(event))
        if event.isStopEvent {
            forwardOn(.completed)
            dispose()
        }
    }
}

private final class Materialize<SourceElement>: Producer<Event<SourceElement>> {
    private let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Event<SourceElement> {
        let sink = MaterializeSink<SourceElement, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
