extension ObservableType {
    /// Keeps the elements for which `predicate` returns `true`; a thrown error ends the
    /// sequence with it.
    ///
    /// - parameter predicate: The test applied to each element.
    /// - returns: A sequence of the elements that pass.
    @inlinable
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        // After a `map` or `filter` of one type, one stage (MapFilterFusion.swift).
        return source.fusedFilter(predicate) ?? Filter(source: source, predicate: predicate)
    }
}

@usableFromInline
final class FilterSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    @usableFromInline
    typealias Element = Observer.Element
    @usableFromInline
    typealias Predicate = (Element) throws -> Bool

    @usableFromInline
    let predicate: Predicate

    @inlinable
    init(predicate: @escaping Predicate, observer: Observer, cancel: SinkDisposer) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            do {
                if try predicate(value) {
                    forwardOn(event)
                }
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        case .completed, .error:
            forwardOn(event)
            dispose()
        }
    }
}

// Inlinable, not RxSwift's private form, for the rx-bench rows "map/filter x6 pumping" and "map/filter x6 creating".
@usableFromInline
final class Filter<Element>: Producer<Element> {
    @usableFromInline
    typealias Predicate = (Element) throws -> Bool

    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let predicate: Predicate

    @inlinable
    init(source: Observable<Element>, predicate: @escaping Predicate) {
        self.source = source
        self.predicate = predicate
        super.init(erasedRun: { producer, observer, cancel in
            let parent = unsafeDowncast(producer, to: Filter<Element>.self)
            let sink = parent.makeSink(observer, cancel: cancel)
            let subscription = parent.source.subscribeErased(AnyObserver(eventHandler: sink.on))
            return (sink: sink, subscription: subscription)
        })
    }

    /// Makes the sink, for both run paths: `erasedRun` and `run`.
    @inlinable @inline(__always)
    func makeSink<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> FilterSink<Observer> where Observer.Element == Element {
        FilterSink(predicate: predicate, observer: observer, cancel: cancel)
    }

    @inlinable
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = makeSink(observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
