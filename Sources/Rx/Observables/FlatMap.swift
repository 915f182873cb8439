extension ObservableType {
    /// Maps each element to an inner sequence with `selector` and merges the elements of all
    /// inner sequences. Completes when `self` and every inner sequence completed; fails with
    /// the first error of any of them.
    ///
    /// - parameter selector: Maps an element to its inner sequence.
    /// - returns: The merged sequence of the inner sequences' elements.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMap(source: asObservable(), selector: selector)
    }
}

private final class FlatMapSink<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == SourceSequence.Element {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let selector: Selector
    /// Held while handling any event, so the observer gets one event at a time.
    let lock = RecursiveLock()
    /// Guarded by `lock`.
    private var stopped = false
    /// Guarded by `lock`: inner sequences not yet terminated.
    private var activeCount = 0
    let group = CompositeDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()

    init(selector: @escaping Selector, observer: Observer, cancel: Cancelable) {
        self.selector = selector
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
                    return try selector(element).asObservable()
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
        lock.performLocked { activeCount += 1 }
        let observer = FlatMapInnerObserver(parent: self, disposeKey: key)
        innerSubscription.setDisposable(inner.subscribe(observer))
    }

    /// An inner sequence terminated successfully.
    func innerCompleted(_ key: CompositeDisposable.DisposeKey) {
        group.remove(for: key)
        lock.performLocked {
            activeCount -= 1
            if stopped && activeCount == 0 {
                forwardOn(.completed)
                dispose()
            }
        }
    }
}

private final class FlatMapInnerObserver<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: ObserverType where Observer.Element == SourceSequence.Element {
    typealias Element = Observer.Element

    private let parent: FlatMapSink<SourceElement, SourceSequence, Observer>
    private let disposeKey: CompositeDisposable.DisposeKey

    init(parent: FlatMapSink<SourceElement, SourceSequence, Observer>, disposeKey: CompositeDisposable.DisposeKey) {
        self.parent = parent
        self.disposeKey = disposeKey
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            parent.lock.performLocked { parent.forwardOn(event) }
        case .error:
            parent.lock.performLocked {
                parent.forwardOn(event)
                parent.dispose()
            }
        case .completed:
            parent.innerCompleted(disposeKey)
        }
    }
}

private final class FlatMap<SourceElement, SourceSequence: ObservableConvertibleType>: Producer<SourceSequence.Element> {
    typealias Selector = (SourceElement) throws -> SourceSequence

    private let source: Observable<SourceElement>
    private let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == SourceSequence.Element {
        let sink = FlatMapSink<SourceElement, SourceSequence, Observer>(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
