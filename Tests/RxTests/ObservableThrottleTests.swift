import RxSwift
import RxTest
import XCTest

final class ObservableThrottleTests: RxTestCase {
    private let events: [Recorded<Event<Int>>] = [
        .next(150, 1),
        .next(210, 2),
        .next(250, 3),
        .next(280, 4),
        .next(350, 5),
        .next(470, 6),
        .next(480, 7),
        .completed(490),
    ]

    func testThrottleLatestSendsNewestElementAtWindowEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        let res = scheduler.start { xs.throttle(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(210, 2),
            .next(310, 4),
            .next(410, 5),
            .next(510, 7),
            .completed(510),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 490)])
    }

    func testThrottleNotLatestDropsElementsInsideWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        let res = scheduler.start { xs.throttle(.seconds(100), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(210, 2),
            .next(350, 5),
            .next(470, 6),
            .completed(490),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 490)])
    }

    func testThrottleElementExactlyAtWindowEndIsSentAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(310, 2), .next(320, 3), .completed(330)])
        let res = scheduler.start { xs.throttle(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(310, 2), .next(410, 3), .completed(410)])
    }

    func testThrottleErrorDropsKeptElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(250, 3), .error(260, testError)])
        let res = scheduler.start { xs.throttle(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testThrottleDisposedMidStreamCancelsPendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(events)
        let res = scheduler.start(disposed: 300) { xs.throttle(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    /// As in RxSwift, the window starts once the observer has handled the element, so an
    /// element it feeds back meanwhile is sent at once.
    func testThrottleReentrantElementIsSentBeforeWindowStarts() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = subject.throttle(.seconds(100), scheduler: scheduler).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                subject.onNext(2)
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(250) { subject.onNext(3) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, 1), .next(210, 2), .next(310, 3)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription.dispose()
    }
}
