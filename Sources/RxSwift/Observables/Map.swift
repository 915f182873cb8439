extension ObservableType {
    /// Transforms each element with `transform`; a thrown error ends the sequence with it.
    ///
    /// - parameter transform: The transform applied to each element.
    /// - returns: A sequence of the transformed elements.
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        let source = asObservable()
        // After a `map` or `filter` of one type, one stage (MapFilterFusion.swift).
        return source.fusedMap(transform) ?? Map(source: source, transform: transform)
    }
}

@usableFromInline
final class MapSink<SourceType, Observer: ObserverType>: Sink<Observer>, ObserverType {
    @usableFromInline
    typealias Transform = (SourceType) throws -> Observer.Element

    @usableFromInline
    let transform: Transform

    @inlinable
    init(transform: @escaping Transform, observer: Observer, cancel: SinkDisposer) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    @inlinable
    func on(_ event: Event<SourceType>) {
        switch event {
        case .next(let element):
            do {
                let mapped = try transform(element)
                forwardOn(.next(mapped))
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

// Inlinable, not RxSwift's private form, for the rx-bench rows "map/filter x6 pumping" and "map/filter x6 creating".
@usableFromInline
final class Map<SourceType, Result>: Producer<Result> {
    @usableFromInline
    typealias Transform = (SourceType) throws -> Result

    @usableFromInline
    let source: Observable<SourceType>
    @usableFromInline
    let transform: Transform

    @inlinable
    init(source: Observable<SourceType>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
        super.init(erasedRun: { producer, observer, cancel in
            let parent = unsafeDowncast(producer, to: Map<SourceType, Result>.self)
            let sink = parent.makeSink(observer, cancel: cancel)
            let subscription = parent.source.subscribeErased(AnyObserver(eventHandler: sink.on))
            return (sink: sink, subscription: subscription)
        })
    }

    /// Makes the sink, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func makeSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> MapSink<SourceType, Observer> where Observer.Element == Result {
        MapSink(transform: transform, observer: observer, cancel: cancel)
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Result {
        let sink = makeSink(observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
