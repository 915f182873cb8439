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

private final class CatchSequenceSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private var iterator: AnyIterator<Observable<Element>>
    private let lock = RxLock(())
    /// Guarded by `lock`: a thread is in the subscription loop of `moveNext`.
    private var subscribing = false
    /// Guarded by `lock`: a source failed while the loop was subscribing.
    private var moveNextRequested = false
    /// The error of the source that failed last; written before `moveNext`, read by the
    /// loop once the sources run out.
    private var lastError: Swift.Error?
    private let current = SerialDisposable()

    init(iterator: AnyIterator<Observable<Element>>, observer: Observer, cancel: Cancelable) {
        self.iterator = iterator
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        moveNext()
        return current
    }

    func on(_ event: Event<Element>) {
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

    /// Subscribes to the next source; sources that fail during their subscription are
    /// followed in a loop rather than recursively (as in `concat`).
    private func moveNext() {
        let enter: Bool = lock.performLocked {
            if subscribing {
                moveNextRequested = true
                return false
            }
            subscribing = true
            return true
        }
        guard enter else { return }
        while true {
            if isDisposed { return }
            guard let next = iterator.next() else {
                if let lastError {
                    forwardOn(.error(lastError))
                } else {
                    forwardOn(.completed)
                }
                dispose()
                return
            }
            let subscription = SingleAssignmentDisposable()
            current.disposable = subscription
            subscription.setDisposable(next.subscribe(self))
            let again: Bool = lock.performLocked {
                if moveNextRequested {
                    moveNextRequested = false
                    return true
                }
                subscribing = false
                return false
            }
            if !again { return }
        }
    }
}

private final class CatchSequence<Element>: Producer<Element> {
    private let makeIterator: () -> AnyIterator<Observable<Element>>

    init(makeIterator: @escaping () -> AnyIterator<Observable<Element>>) {
        self.makeIterator = makeIterator
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = CatchSequenceSink(iterator: makeIterator(), observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
