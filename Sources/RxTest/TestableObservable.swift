import Rx

/// An observable of recorded events that records its subscriptions.
public class TestableObservable<Element>: ObservableType {
    /// The scheduler the events are sent on.
    public let testScheduler: TestScheduler
    /// The subscriptions, with their times.
    public internal(set) var subscriptions: [Subscription] = []
    /// The events this observable sends (times: absolute for hot, relative to the
    /// subscription for cold observables).
    public internal(set) var recordedEvents: [Recorded<Event<Element>>]

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// Subscribes `observer`. Abstract.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("Abstract method")
    }
}

/// Sends its events at their absolute times to the observers subscribed then.
final class HotObservable<Element>: TestableObservable<Element> {
    private var observers: [(id: Int, observer: AnyObserver<Element>)] = []
    private var nextId = 0

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
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
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, self.testScheduler.clock)
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
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, self.testScheduler.clock)
        }
    }
}
