import RxSwift

/// An observer that records each event with the virtual time it arrived at.
public final class TestableObserver<Element>: ObserverType {
    private unowned let scheduler: TestScheduler
    /// The recorded events.
    public private(set) var events: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Records `event` at the scheduler's clock.
    public func on(_ event: Event<Element>) {
        events.append(Recorded(time: scheduler.clock, value: event))
    }
}
