extension ObservableType {
    /// Merges the elements of every source of `sources` into one sequence. Completes when
    /// every source completed; fails with the first error.
    ///
    /// - parameter sources: The sources.
    /// - returns: The merged sequence.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        MergeArray(sources: Array(sources))
    }

    /// Merges the elements of every source of `sources` into one sequence. Completes when
    /// every source completed; fails with the first error.
    ///
    /// - parameter sources: The sources.
    /// - returns: The merged sequence.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeArray(sources: sources)
    }

    /// Merges the elements of every source into one sequence. Completes when every source
    /// completed; fails with the first error.
    ///
    /// - parameter sources: The sources.
    /// - returns: The merged sequence.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        MergeArray(sources: sources)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the elements of the inner sequences `self` sends. Completes when `self` and
    /// every inner sequence completed; fails with the first error.
    ///
    /// - returns: The merged sequence of the inner sequences' elements.
    public func merge() -> Observable<Element.Element> {
        Merge(source: asObservable(), skipWhileActive: false, selector: { $0 })
    }

    /// Merges the elements of the inner sequences `self` sends, with at most `maxConcurrent`
    /// of them subscribed at once; the others wait, in order, for a running one to complete.
    ///
    /// - parameter maxConcurrent: The most inner sequences subscribed at once.
    /// - returns: The merged sequence of the inner sequences' elements.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        MergeLimited(source: asObservable(), maxConcurrent: maxConcurrent, selector: { $0 })
    }
}

// MARK: merging every inner sequence (also used by flatMapFirst)

/// Subscribes to the inner sequences an outer sequence maps to and forwards their elements.
/// With `skipWhileActive`, outer elements arriving while an inner sequence runs are dropped
/// (`flatMapFirst`).
final class MergeSink<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == SourceSequence.Element {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let selector: Selector
    private let skipWhileActive: Bool
    /// Held while handling any event, so the observer gets one event at a time (recursive:
    /// the observer may feed a source again).
    let lock = RecursiveLock()
    /// Guarded by `lock`: the outer sequence completed (or there is none).
    private var stopped = false
    /// Guarded by `lock`: inner sequences not yet terminated.
    private var activeCount = 0
    private let group = CompositeDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()

    init(selector: @escaping Selector, skipWhileActive: Bool, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        self.skipWhileActive = skipWhileActive
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to the outer sequence.
    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(self))
        return group
    }

    /// Subscribes to a fixed list of inner sequences (no outer sequence).
    func run(inners: [Observable<Observer.Element>]) -> Disposable {
        lock.performLocked { activeCount = inners.count }
        for inner in inners {
            subscribeInner(inner)
        }
        lock.performLocked {
            stopped = true
            if activeCount == 0 {
                forwardOn(.completed)
                dispose()
            }
        }
        return group
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Observable<Observer.Element>? = lock.performLocked {
                if skipWhileActive && activeCount > 0 {
                    return nil
                }
                do {
                    let inner = try selector(element).asObservable()
                    activeCount += 1
                    return inner
                } catch {
                    forwardOn(.error(error))
                    dispose()
                    return nil
                }
            }
            if let inner {
                subscribeInner(inner)
            }
        case .error(let error):
            lock.performLocked {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            lock.performLocked {
                stopped = true
                if activeCount == 0 {
                    forwardOn(.completed)
                    dispose()
                } else {
                    sourceSubscription.dispose()
                }
            }
        }
    }

    /// Subscribes to an inner sequence already counted in `activeCount`.
    private func subscribeInner(_ inner: Observable<Observer.Element>) {
        let innerSubscription = SingleAssignmentDisposable()
        guard let key = group.insert(innerSubscription) else { return }
        innerSubscription.setDisposable(inner.subscribe(MergeInnerObserver(parent: self, disposeKey: key)))
    }

    /// Handles an inner sequence's event.
    func innerOn(_ event: Event<Observer.Element>, disposeKey: CompositeDisposable.DisposeKey) {
        switch event {
        case .next:
            lock.performLocked { forwardOn(event) }
        case .error:
            lock.performLocked {
                forwardOn(event)
                dispose()
            }
        case .completed:
            group.remove(for: disposeKey)
            lock.performLocked {
                activeCount -= 1
                if stopped && activeCount == 0 {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }
}

private final class MergeInnerObserver<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: ObserverType where Observer.Element == SourceSequence.Element {
    private let parent: MergeSink<SourceElement, SourceSequence, Observer>
    private let disposeKey: CompositeDisposable.DisposeKey

    init(parent: MergeSink<SourceElement, SourceSequence, Observer>, disposeKey: CompositeDisposable.DisposeKey) {
        self.parent = parent
        self.disposeKey = disposeKey
    }

    func on(_ event: Event<Observer.Element>) {
        parent.innerOn(event, disposeKey: disposeKey)
    }
}

/// `merge()` and `flatMapFirst`: an outer sequence mapped to inner sequences.
final class Merge<SourceElement, SourceSequence: ObservableConvertibleType>: Producer<SourceSequence.Element> {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let source: Observable<SourceElement>
    private let skipWhileActive: Bool
    private let selector: Selector

    init(source: Observable<SourceElement>, skipWhileActive: Bool, selector: @escaping Selector) {
        self.source = source
        self.skipWhileActive = skipWhileActive
        self.selector = selector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == SourceSequence.Element {
        let sink = MergeSink<SourceElement, SourceSequence, Observer>(selector: selector, skipWhileActive: skipWhileActive, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

/// The static `merge` of a fixed list of sources.
private final class MergeArray<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = MergeSink<Observable<Element>, Observable<Element>, Observer>(selector: { $0 }, skipWhileActive: false, observer: observer, cancel: cancel)
        let subscription = sink.run(inners: sources)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: merging with a concurrency limit (also used by concat() and concatMap)

/// Subscribes to at most `maxConcurrent` inner sequences at once; the others wait in order.
final class MergeLimitedSink<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == SourceSequence.Element {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let selector: Selector
    private let maxConcurrent: Int
    /// Held while handling any event (recursive: the observer may feed a source again, and
    /// the next waiting inner sequence is subscribed holding it).
    let lock = RecursiveLock()
    /// Guarded by `lock`: the outer sequence completed.
    private var stopped = false
    /// Guarded by `lock`: inner sequences subscribed and not yet terminated.
    private var activeCount = 0
    /// Guarded by `lock`: inner sequences waiting for a free slot.
    private var waiting = ZipQueue<Observable<Observer.Element>>()
    private let group = CompositeDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()

    init(selector: @escaping Selector, maxConcurrent: Int, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        self.maxConcurrent = maxConcurrent
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(self))
        return group
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            let inner: Observable<Observer.Element>? = lock.performLocked {
                do {
                    let inner = try selector(element).asObservable()
                    if activeCount < maxConcurrent {
                        activeCount += 1
                        return inner
                    }
                    waiting.enqueue(inner)
                    return nil
                } catch {
                    forwardOn(.error(error))
                    dispose()
                    return nil
                }
            }
            if let inner {
                subscribeInner(inner)
            }
        case .error(let error):
            lock.performLocked {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            lock.performLocked {
                stopped = true
                if activeCount == 0 {
                    forwardOn(.completed)
                    dispose()
                } else {
                    sourceSubscription.dispose()
                }
            }
        }
    }

    private func subscribeInner(_ inner: Observable<Observer.Element>) {
        let innerSubscription = SingleAssignmentDisposable()
        guard let key = group.insert(innerSubscription) else { return }
        innerSubscription.setDisposable(inner.subscribe(MergeLimitedInnerObserver(parent: self, disposeKey: key)))
    }

    /// Handles an inner sequence's event.
    func innerOn(_ event: Event<Observer.Element>, disposeKey: CompositeDisposable.DisposeKey) {
        lock.performLocked {
            switch event {
            case .next:
                forwardOn(event)
            case .error:
                forwardOn(event)
                dispose()
            case .completed:
                group.remove(for: disposeKey)
                if !waiting.isEmpty {
                    subscribeInner(waiting.dequeue())
                } else {
                    activeCount -= 1
                    if stopped && activeCount == 0 {
                        forwardOn(.completed)
                        dispose()
                    }
                }
            }
        }
    }
}

private final class MergeLimitedInnerObserver<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: ObserverType where Observer.Element == SourceSequence.Element {
    private let parent: MergeLimitedSink<SourceElement, SourceSequence, Observer>
    private let disposeKey: CompositeDisposable.DisposeKey

    init(parent: MergeLimitedSink<SourceElement, SourceSequence, Observer>, disposeKey: CompositeDisposable.DisposeKey) {
        self.parent = parent
        self.disposeKey = disposeKey
    }

    func on(_ event: Event<Observer.Element>) {
        parent.innerOn(event, disposeKey: disposeKey)
    }
}

/// `merge(maxConcurrent:)`, `concat()` and `concatMap`.
final class MergeLimited<SourceElement, SourceSequence: ObservableConvertibleType>: Producer<SourceSequence.Element> {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let source: Observable<SourceElement>
    private let maxConcurrent: Int
    private let selector: Selector

    init(source: Observable<SourceElement>, maxConcurrent: Int, selector: @escaping Selector) {
        self.source = source
        self.maxConcurrent = max(maxConcurrent, 1)
        self.selector = selector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == SourceSequence.Element {
        let sink = MergeLimitedSink<SourceElement, SourceSequence, Observer>(selector: selector, maxConcurrent: maxConcurrent, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
