extension ObservableType {
    /// Fails with `RxError.timeout` when `dueTime` passes before the first element or between
    /// two elements.
    ///
    /// - parameter dueTime: The longest wait allowed for each element.
    /// - parameter scheduler: The scheduler of the timers.
    /// - returns: The sequence, or a `RxError.timeout` error.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timeout(source: asObservable(), dueTime: dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` when `dueTime` passes before the first element or between two
    /// elements (`self` is then disposed).
    ///
    /// - parameter dueTime: The longest wait allowed for each element.
    /// - parameter other: The sequence continued with on a timeout.
    /// - parameter scheduler: The scheduler of the timers.
    /// - returns: The sequence, followed by `other`'s events after a timeout.
    public func timeout<Source: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType) -> Observable<Element> where Element == Source.Element {
        Timeout(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

private final class TimeoutSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: Timeout<Element>
    /// Held while handling the source's events, a timer, and `other`'s events, so a timer
    /// firing on another thread never overlaps an event (recursive: the observer may feed
    /// the source again).
    let lock = RecursiveLock()
    /// Guarded by `lock`: id of the current wait, so an outdated timer does nothing.
    private var id: UInt64 = 0
    /// Guarded by `lock`: a timer fired and `other` took over.
    private var switched = false
    /// The source's subscription, replaced by `other`'s on a timeout.
    private let subscription = SerialDisposable()
    private let timer = SerialDisposable()

    init(parent: Timeout<Element>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        lock.performLocked { startTimer() }
        original.setDisposable(parent.source.subscribe(self))
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            // The source's events count only until a timer switched to `other`.
            if switched { return }
            id &+= 1
            forwardOn(event)
            if event.isStopEvent {
                dispose()
            } else {
                startTimer()
            }
        }
    }

    /// Called holding `lock`.
    private func startTimer() {
        if timer.isDisposed { return }
        let scheduled = SingleAssignmentDisposable()
        timer.disposable = scheduled
        scheduled.setDisposable(parent.scheduler.scheduleRelative(id, dueTime: parent.dueTime) { [weak self] dueId in
            self?.timerFired(dueId)
            return Disposables.create()
        })
    }

    private func timerFired(_ dueId: UInt64) {
        let timerWins: Bool = lock.performLocked {
            if switched || dueId != id { return false }
            switched = true
            return true
        }
        if timerWins {
            subscription.disposable = parent.other.subscribe(TimeoutOtherObserver(parent: self))
        }
    }
}

/// Forwards `other`'s events under the sink's lock.
private final class TimeoutOtherObserver<Observer: ObserverType>: ObserverType {
    private let parent: TimeoutSink<Observer>

    init(parent: TimeoutSink<Observer>) {
        self.parent = parent
    }

    func on(_ event: Event<Observer.Element>) {
        parent.lock.performLocked {
            parent.forwardOn(event)
            if event.isStopEvent {
                parent.dispose()
            }
        }
    }
}

private final class Timeout<Element>: Producer<Element> {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let other: Observable<Element>
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TimeoutSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
