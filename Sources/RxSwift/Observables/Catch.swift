extension ObservableType {
    /// On an error of the source, continues with the sequence `handler` makes from it.
    /// An error thrown by `handler` ends the sequence with it.
    ///
    /// - parameter handler: Makes the sequence that replaces the failed source.
    /// - returns: The source's elements, then those of the replacement if it failed.
    @inlinable
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

@usableFromInline
final class CatchSink<Observer: ObserverType>: Sink<Observer> {
    @usableFromInline
    typealias Element = Observer.Element

    @usableFromInline
    let handler: (Swift.Error) throws -> Observable<Element>
    /// The source's subscription, then the replacement's.
    @usableFromInline
    let subscription = SerialDisposable()

    @inlinable
    init(handler: @escaping (Swift.Error) throws -> Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel)
    }

    @inlinable
    func run(_ source: Observable<Element>) -> Disposable {
        let sourceSubscription = SingleAssignmentDisposable()
        subscription.disposable = sourceSubscription
        sourceSubscription.setDisposable(source.subscribeErased(AnyObserver(eventHandler: self.on)))
        return subscription
    }

    @inlinable
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
                replacementSubscription.setDisposable(replacement.subscribeErased(AnyObserver(forwarder())))
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        }
    }
}

// Inlinable, with an erased run, so the login session's `catch` of its request runs
// specialised in the app's module (see `Producer.ErasedRun`).
@usableFromInline
final class Catch<Element>: Producer<Element> {
    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let handler: (Swift.Error) throws -> Observable<Element>

    @inlinable
    init(source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) {
        self.source = source
        self.handler = handler
        super.init(erasedRun: { producer, observer, cancel in
            unsafeDowncast(producer, to: Catch<Element>.self).runSink(observer, cancel: cancel)
        })
    }

    /// Makes the sink and subscribes it to the source, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func runSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        return (sink: sink, subscription: sink.run(source))
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        runSink(observer, cancel: cancel)
    }
}
