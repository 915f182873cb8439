extension ObservableType {
    /// Sends only the element at `index` (counting from 0), then completes. Fails with
    /// `RxError.argumentOutOfRange` if the source completes before that element.
    ///
    /// - parameter index: The index of the element; negative is a programmer error.
    /// - returns: A sequence of the one element.
    public func element(at index: Int) -> Observable<Element> {
        if index < 0 {
            rxFatalError("element(at:): index can't be negative")
        }
        return ElementAt(source: asObservable(), index: index)
    }
}

private final class ElementAtSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Only touched by `on`, which the source calls one event at a time.
    private var remaining: Int

    init(index: Int, observer: Observer, cancel: SinkDisposer) {
        self.remaining = index
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if remaining == 0 {
                forwardOn(event)
                forwardOn(.completed)
                dispose()
            }
            remaining -= 1
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(.error(RxError.argumentOutOfRange))
            dispose()
        }
    }
}

private final class ElementAt<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let index: Int

    init(source: Observable<Element>, index: Int) {
        self.source = source
        self.index = index
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ElementAtSink(index: index, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
