extension ObservableType {
    /// The first element of the source, or `nil` if it completes without one; the source is
    /// disposed as soon as the first element arrives.
    ///
    /// - returns: A `Single` of the first element, failing if the source fails first.
    public func first() -> Single<Element?> {
        Single(raw: First(source: asObservable()))
    }
}

private final class FirstSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == SourceElement? {
    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            forwardOn(.next(element))
            forwardOn(.completed)
            dispose()
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.next(nil))
            forwardOn(.completed)
            dispose()
        }
    }
}

private final class First<SourceElement>: Producer<SourceElement?> {
    private let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == SourceElement? {
        let sink = FirstSink<SourceElement, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
