#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ObservableType {
    /// Sends the first element at once, then at most one element per `dueTime`: an element
    /// arriving sooner than `dueTime` after the last one sent is dropped, or, with `latest`,
    /// kept (the newest one wins) and sent when `dueTime` has passed since the last one sent.
    /// Completion waits for a kept element; an error drops it.
    ///
    /// - parameter dueTime: The least time between two elements sent.
    /// - parameter latest: Whether the newest element of a window is sent at its end.
    /// - parameter scheduler: The scheduler of the timers and the clock.
    /// - returns: The throttled sequence.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        Throttle(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

private final class ThrottleSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let parent: Throttle<Element>
    /// Held while handling source events and timers (recursive: the observer may feed the
    /// source again).
    private let lock = RecursiveLock()
    /// Guarded by `lock`, as are the two below: the element kept for the end of the window.
    private var lastUnsentElement: Element?
    /// When the last element was sent.
    private var lastSentTime: Date?
    /// The source completed while an element was kept.
    private var completed = false
    private let timer = SerialDisposable()

    init(parent: Throttle<Element>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let subscription = parent.source.subscribe(self)
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let element):
                // Seconds left of the window that started with the last element sent.
                var remaining: TimeInterval = 0
                if let lastSentTime {
                    remaining = parent.dueTime.rxSeconds - parent.scheduler.now.timeIntervalSince(lastSentTime)
                }
                if remaining <= 0 {
                    sendNow(element)
                    return
                }
                guard parent.latest else { return }
                let alreadyScheduled = lastUnsentElement != nil
                lastUnsentElement = element
                // With an endless window the kept element is never due.
                if alreadyScheduled || !remaining.isFinite { return }
                let scheduled = SingleAssignmentDisposable()
                timer.disposable = scheduled
                let dueTime = RxTimeInterval.nanoseconds(Int(min(remaining * 1_000_000_000, Double(Int.max / 2)).rounded(.up)))
                scheduled.setDisposable(parent.scheduler.scheduleRelative((), dueTime: dueTime) { [weak self] _ in
                    self?.windowEnded()
                    return Disposables.create()
                })
            case .error:
                lastUnsentElement = nil
                forwardOn(event)
                dispose()
            case .completed:
                if lastUnsentElement != nil {
                    completed = true
                } else {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }

    /// Called holding `lock`.
    private func sendNow(_ element: Element) {
        lastUnsentElement = nil
        forwardOn(.next(element))
        // Measured after forwarding: slow observers get their full window.
        lastSentTime = parent.scheduler.now
    }

    private func windowEnded() {
        lock.performLocked {
            if let element = lastUnsentElement {
                sendNow(element)
            }
            if completed {
                forwardOn(.completed)
                dispose()
            }
        }
    }
}

private final class Throttle<Element>: Producer<Element> {
    let source: Observable<Element>
    let dueTime: RxTimeInterval
    let latest: Bool
    let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = ThrottleSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
