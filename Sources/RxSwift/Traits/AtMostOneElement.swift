/// `asSingle()` and `asMaybe()`: holds the source's one element until it completes, and
/// fails with `RxError.moreThanOneElement` at a second one. Completing without an element
/// fails with `emptyError`, or just completes when it is `nil`.
final class AtMostOneElement<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let emptyError: Swift.Error?

    init(source: Observable<Element>, emptyError: Swift.Error?) {
        self.source = source
        self.emptyError = emptyError
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = AtMostOneElementSink(emptyError: emptyError, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

private final class AtMostOneElementSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let emptyError: Swift.Error?
    /// Only touched by `on`, which the source calls one event at a time.
    private var element: Element?

    init(emptyError: Swift.Error?, observer: Observer, cancel: SinkDisposer) {
        self.emptyError = emptyError
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            if element != nil {
                forwardOn(.error(RxError.moreThanOneElement))
                dispose()
                return
            }
            element = value
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            if let element {
                forwardOn(.next(element))
                forwardOn(.completed)
            } else if let emptyError {
                forwardOn(.error(emptyError))
            } else {
                forwardOn(.completed)
            }
            dispose()
        }
    }
}
