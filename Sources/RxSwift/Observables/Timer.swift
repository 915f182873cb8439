extension ObservableType where Element: FixedWidthInteger {
    /// An endless sequence sending 0, 1, 2, ... every `period` on `scheduler`, the first
    /// after one `period`.
    ///
    /// - parameter period: The time between two elements.
    /// - parameter scheduler: The scheduler that runs the timer.
    /// - returns: The observable sequence; dispose it to stop the timer.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TimerProducer(dueTime: period, period: period, scheduler: scheduler)
    }

    /// A sequence that sends 0 after `dueTime` on `scheduler`; without a `period` it then
    /// completes, with one it goes on sending 1, 2, ... every `period` and never completes.
    ///
    /// - parameter dueTime: The time before the first element.
    /// - parameter period: The time between the following elements, or `nil` for one element.
    /// - parameter scheduler: The scheduler that runs the timer.
    /// - returns: The observable sequence.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        TimerProducer(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

private final class TimerSink<Observer: ObserverType>: Sink<Observer> where Observer.Element: FixedWidthInteger {
    typealias Element = Observer.Element

    func runOnce(_ parent: TimerProducer<Element>) -> Disposable {
        parent.scheduler.scheduleRelative((), dueTime: parent.dueTime) { _ in
            self.forwardOn(.next(0))
            self.forwardOn(.completed)
            self.dispose()
            return Disposables.create()
        }
    }

    func runPeriodic(_ parent: TimerProducer<Element>, period: RxTimeInterval) -> Disposable {
        // Runs of a periodic schedule never overlap, so the counter needs no lock.
        parent.scheduler.schedulePeriodic(Element.zero, startAfter: parent.dueTime, period: period) { count in
            self.forwardOn(.next(count))
            return count &+ 1
        }
    }
}

private final class TimerProducer<Element: FixedWidthInteger>: Producer<Element> {
    let dueTime: RxTimeInterval
    let period: RxTimeInterval?
    let scheduler: SchedulerType

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = TimerSink(observer: observer, cancel: cancel)
        let subscription: Disposable
        if let period {
            subscription = sink.runPeriodic(self, period: period)
        } else {
            subscription = sink.runOnce(self)
        }
        return (sink: sink, subscription: subscription)
    }
}
