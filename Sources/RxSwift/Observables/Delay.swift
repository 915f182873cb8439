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

/// RxSwift's delay: each drain sends the oldest waiting event, then schedules the next drain
/// for when the next event is due (at once if it is late). Errors skip the queue: sent at
/// once, or, while the drain is sending an event, right after it. Events are sent and the
/// sink disposed only outside the lock, so an error arriving during a delivery never waits
/// for the observer.
private final class DelaySink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    /// What the drain does next, decided under the lock and done after releasing it.
    private enum DrainStep {
        case forward(Event<Element>)
        case fail(Event<Element>)
        case reschedule(after: TimeInterval)
        case stop
    }

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let lock = RxLock(())
    /// Guarded by `lock`: events waiting, with the time each arrived.
    private var queue: [(arrived: RxTime, event: Event<Element>)] = []
    private var queueHead = 0
    /// Guarded by `lock`: a drain is scheduled or running.
    private var active = false
    /// Guarded by `lock`: the drain is sending events right now.
    private var running = false
    /// Guarded by `lock`: the source's error; sent by the drain if it was running.
    private var errorEvent: Event<Element>?
    private let sourceSubscription = SingleAssignmentDisposable()
    private let drainSubscription = SerialDisposable()

    init(observer: Observer, cancel: SinkDisposer, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, drainSubscription)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            sourceSubscription.dispose()
        }
        switch event {
        case .error:
            let sendNow: Bool = lock.performLocked {
                queue.removeAll()
                queueHead = 0
                errorEvent = event
                return !running
            }
            if sendNow {
                forwardOn(event)
                dispose()
            }
        case .next, .completed:
            let startDrain: Bool = lock.performLocked {
                queue.append((arrived: scheduler.now, event: event))
                if active { return false }
                active = true
                return true
            }
            if startDrain {
                drainSubscription.disposable = scheduler.scheduleRecursive((), dueTime: dueTime) { _, recurse in
                    self.drain(recurse)
                }
            }
        }
    }

    private func drain(_ recurse: ((), RxTimeInterval) -> Void) {
        let failed: Bool = lock.performLocked {
            if errorEvent == nil { running = true }
            return errorEvent != nil
        }
        if failed { return }
        var sentOne = false
        while true {
            switch nextStep(sentOne: sentOne) {
            case .forward(let event):
                sentOne = true
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                    return
                }
            case .fail(let event):
                forwardOn(event)
                dispose()
                return
            case .reschedule(let seconds):
                recurse((), .nanoseconds(Int(min(seconds * 1_000_000_000, Double(Int.max / 2)).rounded())))
                return
            case .stop:
                return
            }
        }
    }

    /// The first step of a drain sends the oldest event; the next one schedules the drain
    /// of the event after it.
    private func nextStep(sentOne: Bool) -> DrainStep {
        lock.performLocked {
            if let errorEvent {
                return .fail(errorEvent)
            }
            if !sentOne && queueHead < queue.count {
                let event = queue[queueHead].event
                queueHead += 1
                return .forward(event)
            }
            running = false
            if queueHead < queue.count {
                let waited = scheduler.now.timeIntervalSince(queue[queueHead].arrived)
                return .reschedule(after: max(0, dueTime.rxSeconds - waited))
            }
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            active = false
            return .stop
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
        let subscription = sink.run(source: source)
        return (sink: sink, subscription: subscription)
    }
}
