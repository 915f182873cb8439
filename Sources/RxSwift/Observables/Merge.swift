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
        Merge(source: asObservable(), selector: { $0 })
    }

    /// Merges the elements of the inner sequences `self` sends, with at most `maxConcurrent`
    /// of them subscribed at once; the others wait, in order, for a running one to complete.
    ///
    /// - parameter maxConcurrent: The most inner sequences subscribed at once.
    /// - returns: The merged sequence of the inner sequences' elements.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        Merge(source: asObservable(), maxConcurrent: maxConcurrent, selector: { $0 })
    }
}

// MARK: the shared sink of merge, merge(maxConcurrent:), concatMap and flatMapFirst

/// Subscribes to the inner sequences an outer sequence maps to and forwards their elements.
/// At most `maxConcurrent` inner sequences are subscribed at once; the others wait, in order,
/// for a free slot (`merge(maxConcurrent:)`, `concatMap`). With `skipWhileActive`, outer
/// elements arriving while an inner sequence runs are dropped (`flatMapFirst`).
final class MergeSink<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == SourceSequence.Element {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let selector: Selector
    private let skipWhileActive: Bool
    private let maxConcurrent: Int
    /// Held while handling any event, so the observer gets one event at a time (recursive:
    /// the observer may feed a source again, and the next waiting inner sequence is
    /// subscribed holding it).
    let lock = RecursiveLock()
    /// Guarded by `lock`: the outer sequence completed (or there is none).
    private var stopped = false
    /// Guarded by `lock`: inner sequences subscribed and not yet terminated.
    private var activeCount = 0
    /// Guarded by `lock`: inner sequences waiting for a free slot.
    private var waiting = ZipQueue<Observable<Observer.Element>>()
    private let group = CompositeDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()

    init(selector: @escaping Selector, skipWhileActive: Bool, maxConcurrent: Int, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        self.skipWhileActive = skipWhileActive
        self.maxConcurrent = maxConcurrent
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to the outer sequence.
    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(self))
        return group
    }

    /// Subscribes to a fixed list of inner sequences (no outer sequence, no limit).
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

    /// Subscribes to an inner sequence already counted in `activeCount`.
    private func subscribeInner(_ inner: Observable<Observer.Element>) {
        let innerSubscription = SingleAssignmentDisposable()
        guard let key = group.insert(innerSubscription) else { return }
        innerSubscription.setDisposable(inner.subscribe(MergeInnerObserver(parent: self, disposeKey: key)))
    }

    /// Handles an inner sequence's event; a completed one hands its slot to the next waiting one.
    func innerOn(_ event: Event<Observer.Element>, disposeKey: CompositeDisposable.DisposeKey) {
        if case .completed = event {
            group.remove(for: disposeKey)
        }
        lock.performLocked {
            switch event {
            case .next:
                forwardOn(event)
            case .error:
                forwardOn(event)
                dispose()
            case .completed:
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

/// `merge()`, `merge(maxConcurrent:)`, `concatMap` and `flatMapFirst`: an outer sequence
/// mapped to inner sequences.
final class Merge<SourceElement, SourceSequence: ObservableConvertibleType>: Producer<SourceSequence.Element> {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let source: Observable<SourceElement>
    private let skipWhileActive: Bool
    private let maxConcurrent: Int
    private let selector: Selector

    /// - parameter maxConcurrent: The most inner sequences subscribed at once (at least 1);
    ///   unlimited when omitted.
    init(source: Observable<SourceElement>, skipWhileActive: Bool = false, maxConcurrent: Int = .max, selector: @escaping Selector) {
        self.source = source
        self.skipWhileActive = skipWhileActive
        self.maxConcurrent = max(maxConcurrent, 1)
        self.selector = selector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == SourceSequence.Element {
        let sink = MergeSink<SourceElement, SourceSequence, Observer>(selector: selector, skipWhileActive: skipWhileActive, maxConcurrent: maxConcurrent, observer: observer, cancel: cancel)
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = MergeSink<Observable<Element>, Observable<Element>, Observer>(selector: { $0 }, skipWhileActive: false, maxConcurrent: .max, observer: observer, cancel: cancel)
        let subscription = sink.run(inners: sources)
        return (sink: sink, subscription: subscription)
    }
}
