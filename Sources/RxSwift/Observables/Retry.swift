extension ObservableType {
    /// On an error, subscribes to the source again, as often as it takes.
    ///
    /// - returns: The source's elements, through any number of resubscriptions.
    public func retry() -> Observable<Element> {
        Retry(source: asObservable(), maxAttemptCount: nil)
    }

    /// On an error, subscribes to the source again, up to `maxAttemptCount` subscriptions in
    /// all; the error of the last attempt is sent.
    ///
    /// - parameter maxAttemptCount: The number of subscriptions, the first included
    ///   (0 gives an empty sequence, as in RxSwift).
    /// - returns: The source's elements, through up to `maxAttemptCount` subscriptions.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        if maxAttemptCount <= 0 {
            return Observable.empty()
        }
        return Retry(source: asObservable(), maxAttemptCount: maxAttemptCount)
    }
}

private final class RetrySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let resubscription: Resubscription<Element>
    /// Resubscriptions left (`nil`: no limit). Only touched by `on`: each subscription's
    /// events come one at a time, and the next subscription starts after the error.
    private var retriesLeft: Int?

    init(source: Observable<Element>, maxAttemptCount: Int?, observer: Observer, cancel: SinkDisposer) {
        self.resubscription = Resubscription(source: source)
        self.retriesLeft = maxAttemptCount.map { $0 - 1 }
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        resubscription.request(self)
        return resubscription.subscription
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error:
            if let left = retriesLeft {
                if left == 0 {
                    forwardOn(event)
                    dispose()
                    return
                }
                retriesLeft = left - 1
            }
            resubscription.request(self)
        }
    }
}

private final class Retry<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let maxAttemptCount: Int?

    init(source: Observable<Element>, maxAttemptCount: Int?) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = RetrySink(source: source, maxAttemptCount: maxAttemptCount, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
