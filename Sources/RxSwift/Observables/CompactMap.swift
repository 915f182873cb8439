extension ObservableType {
    /// Transforms each element with `transform` and sends the non-`nil` results; a thrown
    /// error ends the sequence with it.
    ///
    /// - parameter transform: The transform applied to each element.
    /// - returns: A sequence of the non-`nil` transformed elements.
    @inlinable
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMap(source: asObservable(), transform: { element, _ in try transform(element) })
    }
}

@usableFromInline
final class CompactMapSink<SourceElement, Observer: ObserverType>: Sink<Observer>, ObserverType {
    @usableFromInline
    typealias Transform = (SourceElement, _ isStopped: () -> Bool) throws -> Observer.Element?

    @usableFromInline
    let transform: Transform

    @inlinable
    init(transform: @escaping Transform, observer: Observer, cancel: SinkDisposer) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    @inlinable
    func on(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            do {
                if let mapped = try transform(element, { isDisposed }) {
                    forwardOn(.next(mapped))
                }
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

/// Also the stage that fused `map`s and `filter`s become (MapFilterFusion.swift): a `nil`
/// result is an element a filter dropped, and `isStopped` tells the steps the sink was
/// disposed (a chain's later operators run nothing after that, as unfused ones would not).
// Inlinable, not RxSwift's private form, for the rx-bench rows "map/filter x6 pumping" and "map/filter x6 creating".
@usableFromInline
final class CompactMap<SourceElement, Result>: Producer<Result> {
    @usableFromInline
    typealias Transform = (SourceElement, _ isStopped: () -> Bool) throws -> Result?

    @usableFromInline
    let source: Observable<SourceElement>
    @usableFromInline
    let transform: Transform

    @inlinable
    init(source: Observable<SourceElement>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
        super.init(erasedRun: { producer, observer, cancel in
            let parent = unsafeDowncast(producer, to: CompactMap<SourceElement, Result>.self)
            let sink = parent.makeSink(observer, cancel: cancel)
            let subscription = parent.source.subscribeErased(AnyObserver(eventHandler: sink.on))
            return (sink: sink, subscription: subscription)
        })
    }

    /// Makes the sink, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func makeSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> CompactMapSink<SourceElement, Observer> where Observer.Element == Result {
        CompactMapSink(transform: transform, observer: observer, cancel: cancel)
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = makeSink(observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
