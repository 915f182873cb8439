extension ObservableType {
    /// On an error of the source, continues with the sequence `handler` makes from it.
    /// An error thrown by `handler` ends the sequence with it.
    ///
    /// - parameter handler: Makes the sequence that replaces the failed source.
    /// - returns: The source's elements, then those of the replacement if it failed.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        Catch(source: asObservable(), handler: handler)
    }

    /// On an error of the source, sends `element` and completes.
    ///
    /// - parameter element: The last element sent in place of the error.
    /// - returns: The source's elements, then `element` if it failed.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        Catch(source: asObservable(), handler: { _ in Observable.just(element) })
    }
}

private final class CatchSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let handler: (Swift.Error) throws -> Observable<Element>
    /// The source's subscription, then the replacement's.
    private let subscription = SerialDisposable()

    init(handler: @escaping (Swift.Error) throws -> Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let sourceSubscription = SingleAssignmentDisposable()
        subscription.disposable = sourceSubscription
        sourceSubscription.setDisposable(source.subscribe(self))
        return subscription
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            do {
                let replacement = try handler(error)
                let replacementSubscription = SingleAssignmentDisposable()
                // Disposes the failed source's subscription.
                subscription.disposable = replacementSubscription
                replacementSubscription.setDisposable(replacement.subscribe(forwarder()))
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        }
    }
}

private final class Catch<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let handler: (Swift.Error) throws -> Observable<Element>

    init(source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) {
        self.source = source
        self.handler = handler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
