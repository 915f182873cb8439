import Synchronization

extension ObservableType {
    /// Drops the first `count` elements and sends the rest.
    ///
    /// - parameter count: How many elements to drop.
    /// - returns: The elements after the first `count`.
    public func skip(_ count: Int) -> Observable<Element> {
        if count < 0 {
            rxFatalError("skip: count can't be negative")
        }
        return SkipCount(source: asObservable(), count: count)
    }

    /// Drops the elements sent during `duration` after subscription and sends the rest.
    ///
    /// - parameter duration: How long to drop elements.
    /// - parameter scheduler: The scheduler that runs the timer.
    /// - returns: The elements sent after `duration`.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipTime(source: asObservable(), duration: duration, scheduler: scheduler)
    }

    /// Same as `skip(_:scheduler:)`, named like `take(for:scheduler:)`.
    ///
    /// - parameter duration: How long to drop elements.
    /// - parameter scheduler: The scheduler that runs the timer.
    /// - returns: The elements sent after `duration`.
    public func skip(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipTime(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

private final class SkipCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Only touched by `on`, which the source calls one event at a time.
    private var remaining: Int

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        self.remaining = count
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if remaining > 0 {
                remaining -= 1
            } else {
                forwardOn(event)
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class SkipCount<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = SkipCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}

private final class SkipTimeSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// Set by the timer, read by the source's events (which may run on another thread).
    private let open = Atomic<Bool>(false)

    func run(_ parent: SkipTime<Element>) -> Disposable {
        let timer = parent.scheduler.scheduleRelative((), dueTime: parent.duration) { _ in
            self.open.store(true, ordering: .releasing)
            return Disposables.create()
        }
        let subscription = parent.source.subscribe(self)
        return Disposables.create(timer, subscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if open.load(ordering: .acquiring) {
                forwardOn(event)
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class SkipTime<Element>: Producer<Element> {
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
        let sink = SkipTimeSink(observer: observer, cancel: cancel)
        let subscription = sink.run(self)
        return (sink: sink, subscription: subscription)
    }
}
