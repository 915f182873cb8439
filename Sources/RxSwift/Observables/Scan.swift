extension ObservableType {
    /// Sends the running accumulation of the elements: for each element, `accumulator`
    /// updates the accumulated value in place, starting from `seed`, and the new value is sent.
    /// A thrown error ends the sequence with it.
    ///
    /// - parameter seed: The initial accumulated value.
    /// - parameter accumulator: Folds an element into the accumulated value.
    /// - returns: A sequence of the accumulated values.
    public func scan<Accumulate>(into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void) -> Observable<Accumulate> {
        Scan(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Sends the running accumulation of the elements: for each element, `accumulator`
    /// combines the accumulated value (first `seed`) with it, and the result is sent.
    /// A thrown error ends the sequence with it.
    ///
    /// - parameter seed: The initial accumulated value.
    /// - parameter accumulator: Combines the accumulated value and an element.
    /// - returns: A sequence of the accumulated values.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate) -> Observable<Accumulate> {
        Scan(source: asObservable(), seed: seed) { accumulated, element in
            accumulated = try accumulator(accumulated, element)
        }
    }
}

private final class ScanSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Accumulate = Observer.Element
    typealias Accumulator = (inout Accumulate, SourceElement) throws -> Void

    private let accumulator: Accumulator
    /// Only touched by `on`, which the source calls one event at a time.
    private var accumulated: Accumulate

    init(seed: Accumulate, accumulator: @escaping Accumulator, observer: Observer, cancel: SinkDisposer) {
        self.accumulated = seed
        self.accumulator = accumulator
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            do {
                try accumulator(&accumulated, element)
                forwardOn(.next(accumulated))
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.completed)
            dispose()
        }
    }
}

private final class Scan<SourceElement, Accumulate>: Producer<Accumulate> {
    typealias Accumulator = (inout Accumulate, SourceElement) throws -> Void

    private let source: Observable<SourceElement>
    private let seed: Accumulate
    private let accumulator: Accumulator

    init(source: Observable<SourceElement>, seed: Accumulate, accumulator: @escaping Accumulator) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Accumulate {
        let sink = ScanSink<SourceElement, Observer>(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
