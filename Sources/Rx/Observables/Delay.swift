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

    /// What the drain does next, decided under the lock and done after releasing it.
    private enum DrainStep {
        case forward(Event<Element>)
        case fail(Swift.Error)
        case wait(TimeInterval)
        case stop
    }

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    /// Guards the state below; never held while sending an event or disposing, so an error
    /// arriving while the drain delivers an element never waits for the observer.
    private let lock = RxLock(())
    /// Guarded by `lock`: events waiting, with the time each is due.
    private var queue: [(due: RxTime, event: Event<Element>)] = []
    private var queueHead = 0
    /// Guarded by `lock`: a drain is scheduled or running.
    private var draining = false
    /// Guarded by `lock`: the drain is delivering an event right now.
    private var delivering = false
    /// Guarded by `lock`: an error that arrived while the drain was delivering; the drain
    /// sends it as soon as the observer returns.
    private var pendingError: Swift.Error?
    /// Guarded by `lock`: the error was sent (or handed to the drain); nothing follows it.
    private var failed = false
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
        case .error(let error):
            let sendNow: Bool = lock.performLocked {
                if failed { return false }
                failed = true
                queue.removeAll()
                queueHead = 0
                if delivering {
                    pendingError = error
                    return false
                }
                return true
            }
            if sendNow {
                forwardOn(event)
                dispose()
            }
        case .next, .completed:
            let scheduleDrain: Bool = lock.performLocked {
                if failed { return false }
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

    /// Sends the events that are due one by one, outside the lock, then schedules the next
    /// drain if events are left.
    private func drain() {
        while true {
            switch nextStep() {
            case .forward(let event):
                forwardOn(event)
                if event.isStopEvent {
                    dispose()
                    return
                }
            case .fail(let error):
                forwardOn(.error(error))
                dispose()
                return
            case .wait(let wait):
                let nanoseconds = Int(min(wait * 1_000_000_000, Double(Int.max / 2)).rounded(.up))
                drainSubscription.disposable = scheduler.scheduleRelative((), dueTime: .nanoseconds(nanoseconds)) { _ in
                    self.drain()
                    return Disposables.create()
                }
                return
            case .stop:
                return
            }
        }
    }

    private func nextStep() -> DrainStep {
        lock.performLocked {
            delivering = false
            if let error = pendingError {
                pendingError = nil
                return .fail(error)
            }
            if failed || isDisposed {
                return .stop
            }
            if queueHead < queue.count {
                let (due, event) = queue[queueHead]
                let now = scheduler.now
                if due > now {
                    return .wait(due.timeIntervalSince(now))
                }
                queueHead += 1
                delivering = true
                return .forward(event)
            }
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            draining = false
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = DelaySink(observer: observer, cancel: cancel, dueTime: dueTime, scheduler: scheduler)
        let subscription = sink.run(source: source)
        return (sink: sink, subscription: subscription)
    }
}
