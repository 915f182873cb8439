extension ObservableType {
    /// Checks that the source has exactly one element: the element is sent when it comes,
    /// a second element fails the sequence with `RxError.moreThanOneElement`, completion
    /// without an element fails it with `RxError.noElements`.
    ///
    /// - returns: The sequence, failing unless it has exactly one element.
    public func single() -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: nil)
    }

    /// Checks that exactly one element passes `predicate`: that element is sent when it
    /// comes, a second one that passes fails the sequence with `RxError.moreThanOneElement`,
    /// completion without one fails it with `RxError.noElements`. A thrown error ends the
    /// sequence with it.
    ///
    /// - parameter predicate: The test applied to each element.
    /// - returns: The sequence of the one element that passes.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: predicate)
    }
}

private final class SingleAsyncSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let predicate: ((Element) throws -> Bool)?
    /// Only touched by `on`, which the source calls one event at a time.
    private var seenValue = false

    init(predicate: ((Element) throws -> Bool)?, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                if let predicate, try !predicate(element) {
                    return
                }
            } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            if seenValue {
                forwardOn(.error(RxError.moreThanOneElement))
                dispose()
                return
            }
            seenValue = true
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            forwardOn(seenValue ? .completed : .error(RxError.noElements))
            dispose()
        }
    }
}

private final class SingleAsync<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: ((Element) throws -> Bool)?

    init(source: Observable<Element>, predicate: ((Element) throws -> Bool)?) {
        self.source = source
        self.predicate = predicate
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = SingleAsyncSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
