extension ObservableType {
    /// Sends the elements of `self`, or, if it completes without any, switches to `other`.
    ///
    /// - parameter other: The sequence used when the source is empty.
    /// - returns: The source's elements, or `other`'s.
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        SwitchIfEmpty(source: asObservable(), other: other)
    }

    /// Same as `ifEmpty(switchTo:)`.
    ///
    /// - parameter other: The sequence used when the source is empty.
    /// - returns: The source's elements, or `other`'s.
    public func switchIfEmpty(_ other: Observable<Element>) -> Observable<Element> {
        SwitchIfEmpty(source: asObservable(), other: other)
    }
}

private final class SwitchIfEmptySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let other: Observable<Element>
    /// Only touched by `on`, which the source calls one event at a time.
    private var isEmpty = true
    private let sourceSubscription = SingleAssignmentDisposable()
    private let otherSubscription = SingleAssignmentDisposable()

    init(other: Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.other = other
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, otherSubscription)
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
                sourceSubscription.dispose()
                otherSubscription.setDisposable(other.subscribe(forwarder()))
            } else {
                forwardOn(event)
                dispose()
            }
        }
    }
}

private final class SwitchIfEmpty<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Element>

    init(source: Observable<Element>, other: Observable<Element>) {
        self.source = source
        self.other = other
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = SwitchIfEmptySink(other: other, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
