extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into events: `.next` elements are sent, an
    /// `.error` or `.completed` element terminates the sequence.
    ///
    /// - returns: The sequence the events describe.
    public func dematerialize() -> Observable<Element.Element> {
        Dematerialize(source: asObservable())
    }
}

private final class DematerializeSink<SourceElement: EventConvertible, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == SourceElement.Element {
    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner = element.event
            forwardOn(inner)
            if inner.isStopEvent {
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

private final class Dematerialize<SourceElement: EventConvertible>: Producer<SourceElement.Element> {
    private let source: Observable<SourceElement>

    init(source: Observable<SourceElement>) {
        self.source = source
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == SourceElement.Element {
        let sink = DematerializeSink<SourceElement, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
