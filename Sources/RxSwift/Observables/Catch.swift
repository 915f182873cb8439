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

/// Keeps the subscription in use (the source's, then the replacement's) under its own lock:
/// one object per subscription, where a serial and a single-assignment disposable made three.
@usableFromInline
final class CatchSink<Observer: ObserverType>: Sink<Observer> {
    @usableFromInline
    typealias Element = Observer.Element

    @usableFromInline
    let handler: (Swift.Error) throws -> Observable<Element>
    @usableFromInline
    let lock = RxLock(())
    /// Guarded by `lock`: the subscription in use, as a class reference
    /// (`Observable.subscribeErasedObject`): dropping it is a release, not a call through the
    /// `Optional<Disposable>` value witnesses.
    @usableFromInline
    @exclusivity(unchecked) var current: (AnyObject & Disposable)?
    /// Guarded by `lock`: 0 while the source is in use, 1 once the replacement is.
    @usableFromInline
    @exclusivity(unchecked) var generation = 0

    @inlinable
    init(handler: @escaping (Swift.Error) throws -> Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to `source`; the sink's `dispose()` ends the subscription in use.
    @inlinable
    func run(_ source: Observable<Element>) -> Disposable {
        keep(source.subscribeErasedObject(AnyObserver(eventHandler: self.on)), generation: 0)
        return Disposables.create()
    }

    /// Keeps `subscription` as the one in use, or disposes it if the sink was disposed or
    /// has moved past `generation` meanwhile (a source that failed during its subscribe).
    @inlinable
    func keep(_ subscription: (AnyObject & Disposable)?, generation: Int) {
        // `dispose()` sets the flag before it takes `current` under the lock.
        let kept: Bool = lock.performLocked {
            if isDisposed || self.generation != generation { return false }
            current = subscription
            return true
        }
        if !kept {
            subscription?.dispose()
        }
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
            let replacement: Observable<Element>
            do {
                replacement = try handler(error)
            } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            // The failed source's subscription ends before the replacement's starts.
            let failed: (AnyObject & Disposable)? = lock.performLocked {
                generation = 1
                return current.take()
            }
            failed?.dispose()
            keep(replacement.subscribeErasedObject(AnyObserver(forwarder())), generation: 1)
        }
    }

    /// Stops forwarding and ends the subscription in use.
    @inlinable
    override func dispose() {
        super.dispose()
        let subscription: (AnyObject & Disposable)? = lock.performLocked { current.take() }
        subscription?.dispose()
    }
}

// Inlinable, not RxSwift's private form, for the callgrind-sessions measure "login": with an
// erased run, the login session's `catch` of its request runs specialised in the app's module
// (see `Producer.ErasedRun`).
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
    func runSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        return (sink: sink, subscription: sink.run(source))
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let (sink, subscription) = runSink(observer, cancel: cancel)
        return (sink: sink, subscription: subscription)
    }
}
