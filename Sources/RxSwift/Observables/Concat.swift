extension ObservableType {
    /// Sends the elements of each sequence of `sequence` in turn, subscribing to the next one
    /// when the previous one completes. Fails with the first error.
    ///
    /// - parameter sequence: The sources, iterated afresh by each subscription.
    /// - returns: The concatenated sequence.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        Concat(makeIterator: { AnyIterator(sequence.makeIterator()) })
    }

    /// Sends the elements of each sequence of `collection` in turn, subscribing to the next
    /// one when the previous one completes. Fails with the first error.
    ///
    /// - parameter collection: The sources.
    /// - returns: The concatenated sequence.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        Concat(makeIterator: { AnyIterator(collection.makeIterator()) })
    }

    /// Sends the elements of each source in turn, subscribing to the next one when the
    /// previous one completes. Fails with the first error.
    ///
    /// - parameter sources: The sources.
    /// - returns: The concatenated sequence.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        Concat(makeIterator: { AnyIterator(sources.makeIterator()) })
    }

    /// Sends the elements of `self`, then, once it completed, those of `second`.
    ///
    /// - parameter second: The sequence that follows.
    /// - returns: The concatenated sequence.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element> where Source.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Sends the elements of the inner sequences `self` sends, one inner sequence after
    /// another in order (each waits for the previous one to complete).
    ///
    /// - returns: The concatenated elements of the inner sequences.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

private final class ConcatSink<Observer: ObserverType>: SourceSequenceSink<Observer> {
    override func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            moveNext()
        }
    }
}

private final class Concat<Element>: Producer<Element> {
    private let makeIterator: () -> AnyIterator<Observable<Element>>

    init(makeIterator: @escaping () -> AnyIterator<Observable<Element>>) {
        self.makeIterator = makeIterator
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ConcatSink(iterator: makeIterator(), observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
