extension ObservableType {
    /// Drops the elements of `self` until `other` sends an element, then sends the rest.
    /// An error of either sequence ends it. If `other` never sends an element, nothing is
    /// sent, not even the source's completion (as in RxSwift).
    ///
    /// - parameter other: The sequence whose first element opens the gate.
    /// - returns: The elements sent after `other`'s first element.
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        SkipUntil(source: asObservable(), other: other.asObservable())
    }
}

private final class SkipUntilSink<Other, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Held while handling either sequence's events (recursive: the observer may feed a
    /// source again).
    let lock = RecursiveLock()
    /// Guarded by `lock`: `other` has sent an element.
    var forwardElements = false

    func run(_ parent: SkipUntil<Element, Other>) -> Disposable {
        let otherSubscription = SingleAssignmentDisposable()
        let otherObserver = SkipUntilOther(parent: self, subscription: otherSubscription)
        otherSubscription.setDisposable(parent.other.subscribe(otherObserver))
        // `other` may have ended the sequence already: then the source is not subscribed.
        if isDisposed {
            return otherSubscription
        }
        let sourceSubscription = parent.source.subscribe(self)
        return Disposables.create(otherSubscription, sourceSubscription)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next:
                if forwardElements {
                    forwardOn(event)
                }
            case .error:
                forwardOn(event)
                dispose()
            case .completed:
                if forwardElements {
                    forwardOn(event)
                }
                dispose()
            }
        }
    }
}

private final class SkipUntilOther<Other, Observer: ObserverType>: ObserverType {
    private let parent: SkipUntilSink<Other, Observer>
    private let subscription: Disposable

    init(parent: SkipUntilSink<Other, Observer>, subscription: Disposable) {
        self.parent = parent
        self.subscription = subscription
    }

    func on(_ event: Event<Other>) {
        parent.lock.performLocked {
            switch event {
            case .next:
                parent.forwardElements = true
                subscription.dispose()
            case .error(let error):
                parent.forwardOn(.error(error))
                parent.dispose()
            case .completed:
                subscription.dispose()
            }
        }
    }
}

private final class SkipUntil<Element, Other>: Producer<Element> {
    let source: Observable<Element>
    let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipUntilSink<Other, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
