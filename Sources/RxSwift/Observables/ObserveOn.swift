extension ObservableType {
    /// Sends the events of `self` to observers on `scheduler`, in order and one at a time.
    ///
    /// A `SerialDispatchQueueScheduler` takes a fast path: each event is one queued unit of
    /// work (the queue keeps them in order). Other schedulers get a queue of events drained
    /// by one recursive unit of work at a time, which keeps the events in order and never
    /// concurrent on concurrent schedulers too.
    ///
    /// - parameter scheduler: The scheduler the events are sent on.
    /// - returns: The sequence, observed on `scheduler`.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        if let serialScheduler = scheduler as? SerialDispatchQueueScheduler {
            return ObserveOnSerialDispatchQueue(source: asObservable(), scheduler: serialScheduler)
        }
        return ObserveOn(source: asObservable(), scheduler: scheduler)
    }

    /// The RxSwift 5 name of `observe(on:)`.
    ///
    /// - parameter scheduler: The scheduler the events are sent on.
    /// - returns: The sequence, observed on `scheduler`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

// MARK: any scheduler

/// Whether a drain of the queued events is scheduled or running.
private enum ObserveOnState {
    case stopped
    case running
}

private final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let scheduler: ImmediateSchedulerType
    private let lock = RxLock(())
    /// Guarded by `lock`, as is `state`: the events waiting to be sent.
    private var queue = ZipQueue<Event<Element>>()
    private var state = ObserveOnState.stopped
    /// Guarded by `lock`: a terminal event arrived from the source.
    private var sourceStopped = false
    private let drainSubscription = SerialDisposable()

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: SinkDisposer) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let subscription = source.subscribe(self)
        return Disposables.create(subscription, drainSubscription)
    }

    func on(_ event: Event<Element>) {
        let startDrain: Bool = lock.performLocked {
            if sourceStopped { return false }
            if event.isStopEvent { sourceStopped = true }
            queue.enqueue(event)
            if state == .running { return false }
            state = .running
            return true
        }
        if startDrain {
            drainSubscription.disposable = scheduler.scheduleRecursive(()) { [weak self] _, recurse in
                guard let self else { return }
                if self.sendNext() {
                    recurse(())
                }
            }
        }
    }

    /// Sends one queued event; returns whether more are waiting (otherwise the drain stops
    /// and the next event schedules a new one).
    private func sendNext() -> Bool {
        let event: Event<Element>? = lock.performLocked {
            if queue.isEmpty {
                state = .stopped
                return nil
            }
            return queue.dequeue()
        }
        guard let event, !isDisposed else { return false }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
            return false
        }
        return lock.performLocked {
            if queue.isEmpty {
                state = .stopped
                return false
            }
            return true
        }
    }
}

private final class ObserveOn<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink: sink, subscription: subscription)
    }
}

// MARK: serial dispatch queue

private final class ObserveOnSerialDispatchQueueSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let scheduler: SerialDispatchQueueScheduler

    init(scheduler: SerialDispatchQueueScheduler, observer: Observer, cancel: SinkDisposer) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        // The queue is serial, so the units run one at a time, in order. Their disposables
        // are not kept: a unit that runs after disposal finds the sink disposed and sends
        // nothing.
        _ = scheduler.schedule((self, event)) { sink, event in
            sink.forwardOn(event)
            if event.isStopEvent {
                sink.dispose()
            }
            return Disposables.create()
        }
    }
}

private final class ObserveOnSerialDispatchQueue<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: SerialDispatchQueueScheduler

    init(source: Observable<Element>, scheduler: SerialDispatchQueueScheduler) {
        self.source = source
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ObserveOnSerialDispatchQueueSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
