extension ObservableType {
    /// Maps each element to an inner sequence with `selector` and sends the elements of the
    /// most recent inner sequence only (the previous one is disposed). Completes when `self`
    /// and the latest inner sequence completed; fails with the first error.
    ///
    /// - parameter selector: Maps an element to its inner sequence.
    /// - returns: The elements of the latest inner sequence.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapLatest(source: asObservable(), selector: selector)
    }
}

private final class FlatMapLatestSink<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == SourceSequence.Element {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let selector: Selector
    /// Held while handling any event, so the observer gets one event at a time.
    let lock = RecursiveLock()
    private let sourceSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()
    /// Guarded by `lock`, as are the two below.
    private var stopped = false
    /// Id of the latest inner sequence.
    private(set) var latest = 0
    /// `true` while the latest inner sequence has not terminated.
    private var hasLatest = false

    init(selector: @escaping Selector, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, innerSubscription)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let next: (id: Int, inner: Observable<Observer.Element>)? = lock.performLocked {
                do {
                    let inner = try selector(element).asObservable()
                    hasLatest = true
                    latest += 1
                    return (latest, inner)
                } catch {
                    forwardOn(.error(error))
                    dispose()
                    return nil
                }
            }
            if let next {
                let subscription = SingleAssignmentDisposable()
                innerSubscription.disposable = subscription
                let observer = FlatMapLatestInnerObserver(parent: self, id: next.id, this: subscription)
                subscription.setDisposable(next.inner.subscribe(observer))
            }
        case .error(let error):
            lock.performLocked {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            lock.performLocked {
                stopped = true
                sourceSubscription.dispose()
                if !hasLatest {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }

    /// Handles an event of inner sequence `id` (called holding `lock`).
    func innerOn(_ event: Event<Observer.Element>, id: Int, this: Disposable) {
        guard id == latest else { return }
        switch event {
        case .next:
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            hasLatest = false
            this.dispose()
            if stopped {
                forwardOn(.completed)
                dispose()
            }
        }
    }
}

private final class FlatMapLatestInnerObserver<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: ObserverType where Observer.Element == SourceSequence.Element {
    typealias Element = Observer.Element

    private let parent: FlatMapLatestSink<SourceElement, SourceSequence, Observer>
    private let id: Int
    private let this: Disposable

    init(parent: FlatMapLatestSink<SourceElement, SourceSequence, Observer>, id: Int, this: Disposable) {
        self.parent = parent
        self.id = id
        self.this = this
    }

    func on(_ event: Event<Element>) {
        parent.lock.performLocked {
            parent.innerOn(event, id: id, this: this)
        }
    }
}

private final class FlatMapLatest<SourceElement, SourceSequence: ObservableConvertibleType>: Producer<SourceSequence.Element> {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let source: Observable<SourceElement>
    private let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == SourceSequence.Element {
        let sink = FlatMapLatestSink<SourceElement, SourceSequence, Observer>(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
