extension ObservableType {
    /// Sends the elements of `self` until `other` sends an element, then completes.
    /// An error of either sequence ends it; `other` completing without an element changes nothing.
    ///
    /// - parameter other: The sequence whose first element ends this one.
    /// - returns: The elements sent before `other`'s first element.
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        TakeUntil(source: asObservable(), other: other.asObservable())
    }
}

private final class TakeUntilSink<Other, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Held while handling either sequence's events (recursive: the observer may feed a
    /// source again).
    let lock = RecursiveLock()

    func run(_ parent: TakeUntil<Element, Other>) -> Disposable {
        let otherSubscription = SingleAssignmentDisposable()
        let otherObserver = TakeUntilOther(parent: self, subscription: otherSubscription)
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
            forwardOn(event)
            if event.isStopEvent {
                dispose()
            }
        }
    }
}

private final class TakeUntilOther<Other, Observer: ObserverType>: ObserverType {
    private let parent: TakeUntilSink<Other, Observer>
    private let subscription: Disposable

    init(parent: TakeUntilSink<Other, Observer>, subscription: Disposable) {
        self.parent = parent
        self.subscription = subscription
    }

    func on(_ event: Event<Other>) {
        parent.lock.performLocked {
            switch event {
            case .next:
                parent.forwardOn(.completed)
                parent.dispose()
            case .error(let error):
                parent.forwardOn(.error(error))
                parent.dispose()
            case .completed:
                subscription.dispose()
            }
        }
    }
}

private final class TakeUntil<Element, Other>: Producer<Element> {
    let source: Observable<Element>
    let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeUntilSink<Other, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
