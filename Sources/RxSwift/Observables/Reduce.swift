extension ObservableType {
    /// Folds all elements into one value with `accumulator`, starting from `seed`; when the
    /// source completes, sends `mapResult` of the final value and completes. A thrown error
    /// ends the sequence with it.
    ///
    /// - parameter seed: The initial accumulated value.
    /// - parameter accumulator: Combines the accumulated value and an element.
    /// - parameter mapResult: Transforms the final accumulated value.
    /// - returns: A sequence of one element, the transformed final value.
    public func reduce<Accumulate, Result>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate, mapResult: @escaping (Accumulate) throws -> Result) -> Observable<Result> {
        Reduce(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: mapResult)
    }

    /// Folds all elements into one value with `accumulator`, starting from `seed`; when the
    /// source completes, sends the final value and completes. A thrown error ends the
    /// sequence with it.
    ///
    /// - parameter seed: The initial accumulated value.
    /// - parameter accumulator: Combines the accumulated value and an element.
    /// - returns: A sequence of one element, the final value.
    public func reduce<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate) -> Observable<Accumulate> {
        Reduce(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: { $0 })
    }
}

private final class ReduceSink<SourceElement, Accumulate, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Parent = Reduce<SourceElement, Accumulate, Observer.Element>

    private let parent: Parent
    /// Only touched by `on`, which the source calls one event at a time.
    private var accumulated: Accumulate

    init(parent: Parent, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        self.accumulated = parent.seed
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            do {
                accumulated = try parent.accumulator(accumulated, element)
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            do {
                let result = try parent.mapResult(accumulated)
                forwardOn(.next(result))
                forwardOn(.completed)
            } catch {
                forwardOn(.error(error))
            }
            dispose()
        }
    }
}

private final class Reduce<SourceElement, Accumulate, Result>: Producer<Result> {
    let source: Observable<SourceElement>
    let seed: Accumulate
    let accumulator: (Accumulate, SourceElement) throws -> Accumulate
    let mapResult: (Accumulate) throws -> Result

    init(source: Observable<SourceElement>, seed: Accumulate, accumulator: @escaping (Accumulate, SourceElement) throws -> Accumulate, mapResult: @escaping (Accumulate) throws -> Result) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = ReduceSink(parent: self, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
