extension ObservableType where Element: ObservableConvertibleType {
    /// Sends the elements of the most recent inner sequence `self` sent; each new inner
    /// sequence disposes the previous one. Completes when `self` and the latest inner sequence
    /// completed; fails with the first error.
    ///
    /// - returns: The elements of the latest inner sequence.
    public func switchLatest() -> Observable<Element.Element> {
        SwitchLatest(source: asObservable())
    }
}

private final class SwitchLatestSink<Inner: ObservableConvertibleType, Observer: ObserverType>: Sink<Observer>, ObserverType where Observer.Element == Inner.Element {
    /// Held while handling any event, so the observer gets one event at a time (recursive:
    /// the observer may feed a source again).
    let lock = RecursiveLock()
    private let sourceSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()
    /// Guarded by `lock`, as are the two below: the outer sequence completed.
    private var stopped = false
    /// Id of the latest inner sequence; events of older ones are dropped.
    private var latest: UInt64 = 0
    /// `true` while the latest inner sequence has not terminated.
    private var hasLatest = false

    func run(_ source: Observable<Inner>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, innerSubscription)
    }

    func on(_ event: Event<Inner>) {
        switch event {
        case .next(let inner):
            let id: UInt64 = lock.performLocked {
                hasLatest = true
                latest &+= 1
                return latest
            }
            let subscription = SingleAssignmentDisposable()
            innerSubscription.disposable = subscription
            let observer = SwitchLatestInnerObserver(parent: self, id: id, this: subscription)
            subscription.setDisposable(inner.asObservable().subscribe(observer))
        case .error(let error):
            lock.performLocked {
                forwardOn(.error(error))
                dispose()
            }
        case .completed:
            lock.performLocked {
                stopped = true
                sourceSubscription.dispose()
                if !hasLatest {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }

    /// Handles an event of inner sequence `id` (called holding `lock`).
    func innerOn(_ event: Event<Observer.Element>, id: UInt64, this: Disposable) {
        guard id == latest else { return }
        switch event {
        case .next:
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            hasLatest = false
            this.dispose()
            if stopped {
                forwardOn(.completed)
                dispose()
            }
        }
    }
}

private final class SwitchLatestInnerObserver<Inner: ObservableConvertibleType, Observer: ObserverType>: ObserverType where Observer.Element == Inner.Element {
    private let parent: SwitchLatestSink<Inner, Observer>
    private let id: UInt64
    private let this: Disposable

    init(parent: SwitchLatestSink<Inner, Observer>, id: UInt64, this: Disposable) {
        self.parent = parent
        self.id = id
        self.this = this
    }

    func on(_ event: Event<Observer.Element>) {
        parent.lock.performLocked {
            parent.innerOn(event, id: id, this: this)
        }
    }
}

private final class SwitchLatest<Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<Inner>

    init(source: Observable<Inner>) {
        self.source = source
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Inner.Element {
        let sink = SwitchLatestSink<Inner, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}
