import Foundation

extension ObservableType {
    /// Shifts every element and the completion of `self` later by `dueTime`, on `scheduler`.
    /// Errors are not delayed: they are sent at once and drop the elements still waiting.
    ///
    /// - parameter dueTime: The delay.
    /// - parameter scheduler: The scheduler the delayed events are sent on.
    /// - returns: The delayed sequence.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DelaySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    /// Held while changing the queue and while forwarding, so the observer gets one event
    /// at a time (recursive: the observer may feed the source again).
    private let lock = RecursiveLock()
    /// Guarded by `lock`: events waiting, with the time each is due.
    private var queue: [(due: RxTime, event: Event<Element>)] = []
    private var queueHead = 0
    /// Guarded by `lock`: a drain is scheduled.
    private var draining = false
    private let sourceSubscription = SingleAssignmentDisposable()
    private let drainSubscription = SerialDisposable()

    init(observer: Observer, cancel: Cancelable, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, drainSubscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .error:
            lock.performLocked {
                queue.removeAll()
                queueHead = 0
                forwardOn(event)
                dispose()
            }
        case .next, .completed:
            let scheduleDrain: Bool = lock.performLocked {
                queue.append((due: scheduler.now.addingDispatchInterval(dueTime), event: event))
                if draining { return false }
                draining = true
                return true
            }
            if event.isStopEvent {
                sourceSubscription.dispose()
            }
            if scheduleDrain {
                drainSubscription.disposable = scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                    self.drain()
                    return Disposables.create()
                }
            }
        }
    }

    /// Sends the events that are due, then schedules the next drain if events are left.
    private func drain() {
        let wait: TimeInterval? = lock.performLocked {
            let now = scheduler.now
            while queueHead < queue.count && !isDisposed {
                let (due, event) = queue[queueHead]
                if due > now {
                    return due.timeIntervalSince(now)
                }
                queueHead += 1
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                }
            }
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            draining = false
            return nil
        }
        if let wait {
            let nanoseconds = Int(min(wait * 1_000_000_000, Double(Int.max / 2)).rounded(.up))
            drainSubscription.disposable = scheduler.scheduleRelative((), dueTime: .nanoseconds(nanoseconds)) { _ in
                self.drain()
                return Disposables.create()
            }
        }
    }
}

private final class Delay<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
        let subscription = sink.run(source: source)
        return (sink: sink, subscription: subscription)
    }
}
