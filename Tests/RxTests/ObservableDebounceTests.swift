import RxSwift
import RxTest
import XCTest

final class ObservableDebounceTests: RxTestCase {
    func testDebounceSendsElementsFollowedByQuietTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(250, 2),
            .next(300, 3),
            .next(400, 4),
            .next(405, 5),
            .next(490, 6),
            .completed(500),
        ])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(270, 2),
            .next(320, 3),
            .next(425, 5),
            .next(500, 6),
            .completed(500),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testDebounceErrorDropsPendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(225, testError)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testDebounceDisposedMidStreamCancelsTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(400)])
        let res = scheduler.start(disposed: 260) { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testDebounceReentrantElementIsDebouncedAgain() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = subject.debounce(.seconds(20), scheduler: scheduler).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                subject.onNext(2)
            }
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(300) { subject.onCompleted() }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(230, 1), .next(250, 2), .completed(300)])
        XCTAssertEqual(anomalies, [])
        subscription.dispose()
    }
}
