/// The sink of operators that subscribe to the sources of a sequence one after another
/// (`concat` of a sequence, `catch(sequence:)`): it holds the iterator and the current
/// subscription, and moves to the next source when its subclass calls `moveNext()`.
///
/// Sources that end during their own subscription are followed in a loop rather than
/// recursively, so a long list of synchronous sources does not grow the stack. The
/// iterator is only used by the thread running that loop.
class SourceSequenceSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private var iterator: AnyIterator<Observable<Element>>
    private let lock = RxLock(())
    /// Guarded by `lock`: a thread is in the subscription loop of `moveNext`.
    private var subscribing = false
    /// Guarded by `lock`: a source ended while the loop was subscribing.
    private var moveNextRequested = false
    private let current = SerialDisposable()

    init(iterator: AnyIterator<Observable<Element>>, observer: Observer, cancel: SinkDisposer) {
        self.iterator = iterator
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        moveNext()
        return current
    }

    /// The current source's events; subclasses decide which of them move on.
    func on(_ event: Event<Element>) {
        rxAbstractMethod()
    }

    /// Called once the sources run out: by default the sequence completes.
    func sourcesExhausted() {
        forwardOn(.completed)
        dispose()
    }

    /// Subscribes to the next source, or ends with `sourcesExhausted()` when none is left.
    final func moveNext() {
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
                sourcesExhausted()
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
