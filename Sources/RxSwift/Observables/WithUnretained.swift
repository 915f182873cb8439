extension ObservableType {
    /// Pairs each element with `obj`, held weakly, through `resultSelector`. Once `obj` is
    /// deallocated the next element completes the sequence instead.
    ///
    /// - parameter obj: The object to pass along without retaining it.
    /// - parameter resultSelector: Combines the object and an element.
    /// - returns: The combined elements, until `obj` is gone.
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> Observable<Out> {
        WithUnretained(source: asObservable(), object: obj, resultSelector: resultSelector)
    }

    /// Pairs each element with `obj`, held weakly. Once `obj` is deallocated the next element
    /// completes the sequence instead.
    ///
    /// - parameter obj: The object to pass along without retaining it.
    /// - returns: Tuples of the object and each element, until `obj` is gone.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Observable<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

private final class WithUnretainedSink<Object: AnyObject, Element, Observer: ObserverType>: Sink<Observer>, ObserverType {
    private weak var object: Object?
    private let resultSelector: (Object, Element) -> Observer.Element

    /// `object` is `nil` when it was deallocated before this subscription.
    init(object: Object?, resultSelector: @escaping (Object, Element) -> Observer.Element, observer: Observer, cancel: SinkDisposer) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard let object else {
                forwardOn(.completed)
                dispose()
                return
            }
            forwardOn(.next(resultSelector(object, element)))
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

private final class WithUnretained<Object: AnyObject, Element, Result>: Producer<Result> {
    private let source: Observable<Element>
    private weak var object: Object?
    private let resultSelector: (Object, Element) -> Result

    init(source: Observable<Element>, object: Object, resultSelector: @escaping (Object, Element) -> Result) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = WithUnretainedSink(object: object, resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
