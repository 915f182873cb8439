extension ObservableType {
    /// Sends the first `count` elements, then completes (and disposes the source).
    ///
    /// - parameter count: How many elements to send; 0 gives an empty sequence.
    /// - returns: A sequence of at most `count` elements.
    public func take(_ count: Int) -> Observable<Element> {
        if count < 0 {
            rxFatalError("take: count can't be negative")
        }
        if count == 0 {
            return Observable.empty()
        }
        return TakeCount(source: asObservable(), count: count)
    }

    /// Sends the elements of `self` for `duration`, then completes.
    ///
    /// - parameter duration: How long to send elements.
    /// - parameter scheduler: The scheduler that runs the timer.
    /// - returns: The elements sent during `duration`.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TakeTime(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

private final class TakeCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Only touched by `on`; the source calls it one event at a time, reentrant calls from
    /// the observer see the count already lowered.
    private var remaining: Int

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.remaining = count
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            guard remaining > 0 else { return }
            remaining -= 1
            forwardOn(event)
            if remaining == 0 {
                forwardOn(.completed)
                dispose()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class TakeCount<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

private final class TakeTimeSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Held while forwarding: the timer and the source may run on different threads
    /// (recursive: the observer may feed the source again).
    private let lock = RecursiveLock()

    func run(_ parent: TakeTime<Element>) -> Disposable {
        let timer = parent.scheduler.scheduleRelative((), dueTime: parent.duration) { _ in
            self.lock.performLocked {
                self.forwardOn(.completed)
                self.dispose()
            }
            return Disposables.create()
        }
        let subscription = parent.source.subscribe(self)
        return Disposables.create(timer, subscription)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            forwardOn(event)
            if event.isStopEvent {
                dispose()
            }
        }
    }
}

private final class TakeTime<Element>: Producer<Element> {
    let source: Observable<Element>
    let duration: RxTimeInterval
    let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TakeTimeSink(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
