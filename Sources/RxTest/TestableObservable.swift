import RxSwift

/// An observable of recorded events that records its subscriptions.
public class TestableObservable<Element>: ObservableType {
    /// Weak: the scheduler's queued events hold a hot observable strongly (as in RxSwift, one
    /// created inline and not stored still sends them), so a strong reference back would make
    /// a cycle that outlives a scheduler stopped with events still queued.
    weak var scheduler: TestScheduler?

    /// The scheduler the events are sent on (the test keeps it alive while it runs).
    public var testScheduler: TestScheduler {
        guard let scheduler else { fatalError("The TestScheduler of this observable was released") }
        return scheduler
    }
    /// The subscriptions, with their times.
    public internal(set) var subscriptions: [Subscription] = []
    /// The events this observable sends (times: absolute for hot, relative to the
    /// subscription for cold observables).
    public internal(set) var recordedEvents: [Recorded<Event<Element>>]

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.scheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// Subscribes `observer`. Abstract.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("Abstract method")
    }
}

/// Sends its events at their absolute times to the observers subscribed then, whether or not
/// anything else keeps it alive: the scheduler's queued events hold it.
final class HotObservable<Element>: TestableObservable<Element> {
    private var observers: [(id: Int, observer: AnyObserver<Element>)] = []
    private var nextId = 0

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) {
                for entry in self.observers {
                    entry.observer.on(recorded.value)
                }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let id = nextId
        nextId += 1
        observers.append((id: id, observer: AnyObserver(observer)))
        subscriptions.append(Subscription(testScheduler.clock))
        let index = subscriptions.count - 1
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.observers.removeAll { $0.id == id }
            guard let clock = self.scheduler?.clock else { return }
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, clock)
        }
    }
}

/// Sends its events to each subscriber at their times after the subscription.
final class ColdObservable<Element>: TestableObservable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscriptions.append(Subscription(testScheduler.clock))
        let index = subscriptions.count - 1
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
            _ = scheduled.insert(testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                observer.on(recorded.value)
                return Disposables.create()
            })
        }
        return Disposables.create { [weak self] in
            scheduled.dispose()
            guard let self else { return }
            guard let clock = self.scheduler?.clock else { return }
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, clock)
        }
    }
}
