extension ObservableType {
    /// Each time `self` sends an element, combines it with the latest element of `second`
    /// using `resultSelector`; elements of `self` before `second` has one are dropped.
    /// Completes when `self` completes; fails when either fails.
    ///
    /// - parameter second: The sequence whose latest element is used.
    /// - parameter resultSelector: Combines the two elements.
    /// - returns: A sequence of the combined results.
    @inlinable
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(_ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType) -> Observable<ResultType> {
        WithLatestFrom(first: asObservable(), second: second.asObservable(), resultSelector: resultSelector)
    }

    /// Each time `self` sends an element, sends the latest element of `second` (if any).
    ///
    /// - parameter second: The sequence whose latest element is sent.
    /// - returns: A sequence of `second`'s latest elements.
    @inlinable
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFrom(first: asObservable(), second: second.asObservable(), resultSelector: { $1 })
    }
}

/// Holds the latest element of `second`; both sources' events are handled under `lock`. One
/// object per subscription: the two source subscriptions are slots of the sink, disposed by
/// its `dispose()`.
@usableFromInline
final class WithLatestFromSink<FirstType, LatestSecond: LatestElementSlot, Observer: ObserverType>: Sink<Observer> {
    @usableFromInline
    typealias SecondType = LatestSecond.Wrapped
    @usableFromInline
    typealias ResultSelector = (FirstType, SecondType) throws -> Observer.Element

    @usableFromInline
    let resultSelector: ResultSelector
    /// Held while handling either source's events (recursive: the observer may feed a source).
    @usableFromInline
    let lock = InlineRecursiveLock()
    @usableFromInline
    let firstSubscription = InlineSingleAssignmentDisposable()
    @usableFromInline
    let secondSubscription = InlineSingleAssignmentDisposable()
    /// Guarded by `lock`. `SecondType?`, as a parameter of the sink (`LatestElementSlot`).
    @usableFromInline
    @exclusivity(unchecked) var latest: LatestSecond = nil

    @inlinable
    init(resultSelector: @escaping ResultSelector, observer: Observer, cancel: SinkDisposer) {
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes to `second`, then to `first`; the sink's `dispose()` ends both subscriptions.
    @inlinable
    func run(_ first: Observable<FirstType>, _ second: Observable<SecondType>) -> Disposable {
        secondSubscription.setDisposable(object: second.subscribeErasedObject(AnyObserver(eventHandler: self.onSecond)))
        firstSubscription.setDisposable(object: first.subscribeErasedObject(AnyObserver(eventHandler: self.on)))
        return Disposables.create()
    }

    @inlinable
    func on(_ event: Event<FirstType>) {
        lock.performLocked {
            switch event {
            case .next(let value):
                guard let latest = latest.element else { return }
                do {
                    let result = try resultSelector(value, latest)
                    forwardOn(.next(result))
                } catch {
                    forwardOn(.error(error))
                    dispose()
                }
            case .completed:
                forwardOn(.completed)
                dispose()
            case .error(let error):
                forwardOn(.error(error))
                dispose()
            }
        }
    }

    @inlinable
    func onSecond(_ event: Event<SecondType>) {
        lock.performLocked {
            switch event {
            case .next(let value):
                latest = LatestSecond(value)
            case .completed:
                secondSubscription.dispose()
            case .error(let error):
                forwardOn(.error(error))
                dispose()
            }
        }
    }

    /// Stops forwarding and ends both source subscriptions.
    @inlinable
    override func dispose() {
        super.dispose()
        firstSubscription.dispose()
        secondSubscription.dispose()
    }
}

// Inlinable, not RxSwift's private form, for the callgrind-sessions measure "login": with an
// erased run, a login session's `withLatestFrom` runs specialised in the view model's module
// (see `Producer.ErasedRun`).
@usableFromInline
final class WithLatestFrom<FirstType, SecondType, ResultType>: Producer<ResultType> {
    @usableFromInline
    typealias ResultSelector = (FirstType, SecondType) throws -> ResultType

    @usableFromInline
    let first: Observable<FirstType>
    @usableFromInline
    let second: Observable<SecondType>
    @usableFromInline
    let resultSelector: ResultSelector

    @inlinable
    init(first: Observable<FirstType>, second: Observable<SecondType>, resultSelector: @escaping ResultSelector) {
        self.first = first
        self.second = second
        self.resultSelector = resultSelector
        super.init(erasedRun: { producer, observer, cancel in
            unsafeDowncast(producer, to: WithLatestFrom<FirstType, SecondType, ResultType>.self).runSink(observer, cancel: cancel)
        })
    }

    /// Makes the sink and subscribes it to the sources, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func runSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == ResultType {
        let sink = WithLatestFromSink<FirstType, SecondType?, Observer>(resultSelector: resultSelector, observer: observer, cancel: cancel)
        return (sink: sink, subscription: sink.run(first, second))
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == ResultType {
        let (sink, subscription) = runSink(observer, cancel: cancel)
        return (sink: sink, subscription: subscription)
    }
}
