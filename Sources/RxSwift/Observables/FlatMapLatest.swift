extension ObservableType {
    /// Maps each element to an inner sequence with `selector` and sends the elements of the
    /// most recent inner sequence only (the previous one is disposed). Completes when `self`
    /// and the latest inner sequence completed; fails with the first error.
    ///
    /// - parameter selector: Maps an element to its inner sequence.
    /// - returns: The elements of the latest inner sequence.
    @inlinable
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapLatest(source: asObservable(), selector: selector)
    }
}

@usableFromInline
final class FlatMapLatestSink<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer> where Observer.Element == SourceSequence.Element {
    @usableFromInline
    typealias Selector = (SourceElement) throws -> SourceSequence
    @usableFromInline
    typealias Inner = FlatMapLatestInner<SourceElement, SourceSequence, Observer>

    @usableFromInline
    let selector: Selector
    /// Held while forwarding any event, so the observer gets one event at a time.
    @usableFromInline
    let lock = InlineRecursiveLock()
    @usableFromInline
    let sourceSubscription = InlineSingleAssignmentDisposable()
    /// Guarded by `lock`, as are the three below: the source completed.
    @usableFromInline
    @exclusivity(unchecked) var stopped = false
    /// Id of the latest inner sequence.
    @usableFromInline
    @exclusivity(unchecked) var latest = 0
    /// The latest inner subscription, until it terminates. Typed as the base class, so the
    /// unspecialised `dispose()` (reached through the vtable) needs no generic metadata.
    @usableFromInline
    @exclusivity(unchecked) var current: InnerSubscriptionSlot?
    /// Set by `dispose()`: no inner subscription may start after it.
    @usableFromInline
    @exclusivity(unchecked) var innerDisposed = false

    @inlinable
    init(selector: @escaping Selector, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to the source; the sink's `dispose()` ends every subscription.
    @inlinable
    func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(object: source.subscribeErasedObject(AnyObserver(eventHandler: self.on)))
        return Disposables.create()
    }

    @inlinable
    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let source: Observable<Observer.Element>
            do {
                source = try selector(element).asObservable()
            } catch {
                lock.performLocked {
                    forwardOn(.error(error))
                    dispose()
                }
                return
            }
            if type(of: source) == Just<Observer.Element>.self {
                // A `just` inner sequence replaces the current one, sends its element and
                // completes during the subscription: apply those events directly. (`Just` is
                // final: comparing the type is the cast, without a retained result.)
                let element = unsafeDowncast(source, to: Just<Observer.Element>.self).element
                let replaced: InnerSubscriptionSlot? = lock.performLocked {
                    if innerDisposed { return nil }
                    latest += 1
                    let replaced = current
                    current = nil
                    forwardOn(.next(element))
                    if stopped {
                        forwardOn(.completed)
                        dispose()
                    }
                    return replaced
                }
                replaced?.dispose()
                return
            }
            let inner = Inner(parent: self)
            let previous: (replaced: InnerSubscriptionSlot?, started: Bool) = lock.performLocked {
                if innerDisposed { return (nil, false) }
                latest += 1
                inner.id = latest
                let replaced = current
                current = inner
                return (replaced, true)
            }
            previous.replaced?.dispose()
            if previous.started {
                inner.subscribe(source, AnyObserver(eventHandler: inner.on))
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
                if current == nil {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }

    /// Handles an event of inner sequence `inner` (called holding `lock`).
    @inlinable
    func innerOn(_ event: Event<Observer.Element>, inner: Inner) {
        guard inner.id == latest else { return }
        switch event {
        case .next:
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            current = nil
            if stopped {
                forwardOn(.completed)
                dispose()
            }
        }
    }

    /// Stops forwarding and ends the source and inner subscriptions.
    @inlinable
    override func dispose() {
        super.dispose()
        let toDispose: InnerSubscriptionSlot? = lock.performLocked {
            innerDisposed = true
            let inner = current
            current = nil
            return inner
        }
        sourceSubscription.dispose()
        toDispose?.dispose()
    }
}

/// One inner subscription of a `flatMapLatest`, identified by `id`; it forwards only while
/// it is the latest.
@usableFromInline
final class FlatMapLatestInner<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: InnerSubscriptionSlot where Observer.Element == SourceSequence.Element {
    @usableFromInline
    let parent: FlatMapLatestSink<SourceElement, SourceSequence, Observer>
    /// Set under the parent's lock before the inner subscription starts.
    @usableFromInline
    @exclusivity(unchecked) var id = 0

    @inlinable
    init(parent: FlatMapLatestSink<SourceElement, SourceSequence, Observer>) {
        self.parent = parent
        super.init()
    }

    @inlinable
    func on(_ event: Event<Observer.Element>) {
        if event.isStopEvent {
            // Disposed first, as RxSwift's `switchLatest` does.
            guard Self.isLive(stop(disposing: true)) else { return }
        } else if isStopped {
            return
        }
        parent.lock.performLocked {
            parent.innerOn(event, inner: self)
        }
    }
}

// Inlinable, not RxSwift's private form, for the rx-bench rows "flatMapLatest x5 pumping" and "flatMapLatest x5 creating".
@usableFromInline
final class FlatMapLatest<SourceElement, SourceSequence: ObservableConvertibleType>: Producer<SourceSequence.Element> {
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
            let parent = unsafeDowncast(producer, to: FlatMapLatest<SourceElement, SourceSequence>.self)
            let sink = parent.makeSink(observer, cancel: cancel)
            let subscription = sink.run(parent.source)
            return (sink: sink, subscription: subscription)
        })
    }

    /// Makes the sink, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func makeSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> FlatMapLatestSink<SourceElement, SourceSequence, Observer> where Observer.Element == SourceSequence.Element {
        FlatMapLatestSink(selector: selector, observer: observer, cancel: cancel)
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == SourceSequence.Element {
        let sink = makeSink(observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
