extension ObservableType {
    /// Sends the elements of `self`, or `default` if it completes without any.
    ///
    /// - parameter default: The element sent for an empty source.
    /// - returns: The source's elements, or `default` alone.
    public func ifEmpty(default: Element) -> Observable<Element> {
        DefaultIfEmpty(source: asObservable(), default: `default`)
    }

    /// Same as `ifEmpty(default:)`.
    ///
    /// - parameter default: The element sent for an empty source.
    /// - returns: The source's elements, or `default` alone.
    public func defaultIfEmpty(_ default: Element) -> Observable<Element> {
        DefaultIfEmpty(source: asObservable(), default: `default`)
    }
}

private final class DefaultIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let defaultElement: Element
    /// Only touched by `on`, which the source calls one event at a time.
    private var isEmpty = true

    init(default: Element, observer: Observer, cancel: SinkDisposer) {
        self.defaultElement = `default`
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            isEmpty = false
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            if isEmpty {
                forwardOn(.next(defaultElement))
            }
            forwardOn(.completed)
            dispose()
        }
    }
}

private final class DefaultIfEmpty<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let defaultElement: Element

    init(source: Observable<Element>, default: Element) {
        self.source = source
        self.defaultElement = `default`
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DefaultIfEmptySink(default: defaultElement, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
