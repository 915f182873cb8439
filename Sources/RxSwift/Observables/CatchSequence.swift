extension ObservableType {
    /// Subscribes to the sources of `sequence` in turn, moving to the next one each time
    /// the current one fails; sends the elements of all of them. Completes with the first
    /// source that completes; fails with the last error once `sequence` is exhausted.
    ///
    /// - parameter sequence: The sources, iterated afresh by each subscription.
    /// - returns: The sources' elements, up to the first one that completes.
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        CatchSequence(makeIterator: { AnyIterator(sequence.makeIterator()) })
    }

    /// RxSwift 5 name of `catch(sequence:)`.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }
}

private final class CatchSequenceSink<Observer: ObserverType>: SourceSequenceSink<Observer> {
    /// The error of the source that failed last; written before `moveNext`, read by its
    /// loop once the sources run out.
    private var lastError: Swift.Error?

    override func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            lastError = error
            moveNext()
        }
    }

    override func sourcesExhausted() {
        if let lastError {
            forwardOn(.error(lastError))
            dispose()
        } else {
            super.sourcesExhausted()
        }
    }
}

private final class CatchSequence<Element>: Producer<Element> {
    private let makeIterator: () -> AnyIterator<Observable<Element>>

    init(makeIterator: @escaping () -> AnyIterator<Observable<Element>>) {
        self.makeIterator = makeIterator
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSequenceSink(iterator: makeIterator(), observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
