extension ObservableType {
    /// Each time `self` sends an element, combines it with the latest element of `second`
    /// using `resultSelector`; elements of `self` before `second` has one are dropped.
    /// Completes when `self` completes; fails when either fails.
    ///
    /// - parameter second: The sequence whose latest element is used.
    /// - parameter resultSelector: Combines the two elements.
    /// - returns: A sequence of the combined results.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(_ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType) -> Observable<ResultType> {
        WithLatestFrom(first: asObservable(), second: second.asObservable(), resultSelector: resultSelector)
    }

    /// Each time `self` sends an element, sends the latest element of `second` (if any).
    ///
    /// - parameter second: The sequence whose latest element is sent.
    /// - returns: A sequence of `second`'s latest elements.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFrom(first: asObservable(), second: second.asObservable(), resultSelector: { $1 })
    }
}

private final class WithLatestFromSink<FirstType, SecondType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias ResultType = Observer.Element
    typealias Parent = WithLatestFrom<FirstType, SecondType, ResultType>

    private let parent: Parent
    /// Held while handling either source's events.
    let lock = RecursiveLock()
    /// Guarded by `lock`.
    fileprivate var latest: SecondType?

    init(parent: Parent, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let secondSubscription = SingleAssignmentDisposable()
        let secondObserver = WithLatestFromSecond(parent: self, disposable: secondSubscription)
        secondSubscription.setDisposable(parent.second.subscribe(secondObserver))
        let firstSubscription = parent.first.subscribe(self)
        return Disposables.create(firstSubscription, secondSubscription)
    }

    func on(_ event: Event<FirstType>) {
        lock.performLocked {
            switch event {
            case .next(let value):
                guard let latest else { return }
                do {
                    let result = try parent.resultSelector(value, latest)
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
}

private final class WithLatestFromSecond<FirstType, SecondType, Observer: ObserverType>: ObserverType {
    private let parent: WithLatestFromSink<FirstType, SecondType, Observer>
    private let disposable: Disposable

    init(parent: WithLatestFromSink<FirstType, SecondType, Observer>, disposable: Disposable) {
        self.parent = parent
        self.disposable = disposable
    }

    func on(_ event: Event<SecondType>) {
        parent.lock.performLocked {
            switch event {
            case .next(let value):
                parent.latest = value
            case .completed:
                disposable.dispose()
            case .error(let error):
                parent.forwardOn(.error(error))
                parent.dispose()
            }
        }
    }
}

private final class WithLatestFrom<FirstType, SecondType, ResultType>: Producer<ResultType> {
    typealias ResultSelector = (FirstType, SecondType) throws -> ResultType

    let first: Observable<FirstType>
    let second: Observable<SecondType>
    let resultSelector: ResultSelector

    init(first: Observable<FirstType>, second: Observable<SecondType>, resultSelector: @escaping ResultSelector) {
        self.first = first
        self.second = second
        self.resultSelector = resultSelector
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == ResultType {
        let sink = WithLatestFromSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
