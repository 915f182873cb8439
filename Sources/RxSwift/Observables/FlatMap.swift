extension ObservableType {
    /// Maps each element to an inner sequence with `selector` and merges the elements of all
    /// inner sequences. Completes when `self` and every inner sequence completed; fails with
    /// the first error of any of them.
    ///
    /// - parameter selector: Maps an element to its inner sequence.
    /// - returns: The merged sequence of the inner sequences' elements.
    @inlinable
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMap(source: asObservable(), selector: selector)
    }
}

@usableFromInline
final class FlatMapSink<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer> where Observer.Element == SourceSequence.Element {
    @usableFromInline
    typealias Selector = (SourceElement) throws -> SourceSequence
    @usableFromInline
    typealias Inner = FlatMapInner<SourceElement, SourceSequence, Observer>

    @usableFromInline
    let selector: Selector
    /// Held while forwarding any event, so the observer gets one event at a time.
    @usableFromInline
    let lock = InlineRecursiveLock()
    /// Guarded by `lock`, as are the two below: the source completed.
    @usableFromInline
    @exclusivity(unchecked) var stopped = false
    /// The inner subscriptions that have not terminated (`Inner` objects).
    @usableFromInline
    @exclusivity(unchecked) var inners = SubjectObserverList()
    /// Set by `dispose()`: no inner subscription may start after it.
    @usableFromInline
    @exclusivity(unchecked) var innersDisposed = false
    @usableFromInline
    let sourceSubscription = InlineSingleAssignmentDisposable()

    @inlinable @inline(__always)
    init(selector: @escaping Selector, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to the source; the sink's `dispose()` ends every subscription.
    @inlinable
    func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribeErased(AnyObserver(eventHandler: self.on)))
        return Disposables.create()
    }

    @inlinable
    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Observable<Observer.Element>
            do {
                inner = try selector(element).asObservable()
            } catch {
                lock.performLocked {
                    forwardOn(.error(error))
                    dispose()
                }
                return
            }
            subscribeInner(inner)
        case .error(let error):
            lock.performLocked {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            lock.performLocked {
                stopped = true
                if inners.isEmpty {
                    forwardOn(.completed)
                    dispose()
                } else {
                    sourceSubscription.dispose()
                }
            }
        }
    }

    @inlinable
    func subscribeInner(_ source: Observable<Observer.Element>) {
        if type(of: source) == Just<Observer.Element>.self {
            // A `just` inner sequence sends its element and completes during the subscription;
            // forwarding the element directly gives the same events without the subscription.
            // (`Just` is final: comparing the type is the cast, without a retained result.)
            let element = unsafeDowncast(source, to: Just<Observer.Element>.self).element
            lock.performLocked {
                if !innersDisposed {
                    forwardOn(.next(element))
                }
            }
            return
        }
        let inner = Inner(parent: self)
        let added: Bool = lock.performLocked {
            if innersDisposed { return false }
            inners.insert(inner)
            return true
        }
        guard added else { return }
        inner.subscribe(source, AnyObserver(eventHandler: inner.on))
    }

    /// An inner sequence completed.
    @inlinable
    func innerCompleted(_ inner: Inner) {
        lock.performLocked {
            _ = inners.remove(inner)
            if stopped && inners.isEmpty {
                forwardOn(.completed)
                dispose()
            }
        }
    }

    /// Stops forwarding and ends the source and every inner subscription.
    @inlinable
    override func dispose() {
        super.dispose()
        let toDispose: SubjectObserverList? = lock.performLocked {
            if innersDisposed { return nil }
            innersDisposed = true
            let current = inners
            inners.removeAll()
            return current
        }
        sourceSubscription.dispose()
        guard let toDispose else { return }
        if let first = toDispose.first {
            unsafeDowncast(first, to: Inner.self).dispose()
        }
        for inner in toDispose.rest ?? [] {
            unsafeDowncast(inner, to: Inner.self).dispose()
        }
    }
}

/// One inner subscription of a `flatMap`: forwards its events under the sink's lock and
/// holds its own subscription (set once, possibly after it was disposed).
@usableFromInline
final class FlatMapInner<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: InnerSubscriptionSlot where Observer.Element == SourceSequence.Element {
    @usableFromInline
    let parent: FlatMapSink<SourceElement, SourceSequence, Observer>

    @inlinable
    init(parent: FlatMapSink<SourceElement, SourceSequence, Observer>) {
        self.parent = parent
        super.init()
    }

    @inlinable
    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next:
            if isStopped { return }
            parent.lock.performLocked {
                parent.forwardOn(event)
            }
        case .error:
            // The sink's `dispose()` disposes this slot with the others.
            guard stop(disposing: false) else { return }
            parent.lock.performLocked {
                parent.forwardOn(event)
                parent.dispose()
            }
        case .completed:
            guard stop(disposing: true) else { return }
            parent.innerCompleted(self)
        }
    }
}

// Inlinable, not RxSwift's private form, for the rx-bench rows "flatMap x5 pumping" and "flatMap x5 creating".
@usableFromInline
final class FlatMap<SourceElement, SourceSequence: ObservableConvertibleType>: Producer<SourceSequence.Element> {
    @usableFromInline
    typealias Selector = (SourceElement) throws -> SourceSequence

    @usableFromInline
    let source: Observable<SourceElement>
    @usableFromInline
    let selector: Selector

    @inlinable
    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
        super.init(erasedRun: { producer, observer, cancel in
            let parent = unsafeDowncast(producer, to: FlatMap<SourceElement, SourceSequence>.self)
            let sink = parent.makeSink(observer, cancel: cancel)
            let subscription = sink.run(parent.source)
            return (sink: sink, subscription: subscription)
        })
    }

    /// Makes the sink, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func makeSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> FlatMapSink<SourceElement, SourceSequence, Observer> where Observer.Element == SourceSequence.Element {
        FlatMapSink(selector: selector, observer: observer, cancel: cancel)
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == SourceSequence.Element {
        let sink = makeSink(observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
