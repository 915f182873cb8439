import RxSwift
import RxTest
import XCTest

final class ObservableMapTests: RxTestCase {
    func testMapTransformsEachElementAtItsTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(240, 4),
            .completed(300),
            .next(310, 9),
        ])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertEqual(res.events, [
            .next(210, 20),
            .next(240, 40),
            .completed(300),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testMapForwardsSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 2),
            .error(250, testError),
            .next(260, 3),
        ])
        let res = scheduler.start { xs.map { $0 + 1 } }
        XCTAssertEqual(res.events, [.next(210, 3), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMapThrowingTransformEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(220, 2),
            .next(230, 3),
            .completed(300),
        ])
        let res = scheduler.start { xs.map { value -> Int in
            if value == 2 { throw testError }
            return value
        } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testMapDisposedMidStreamStopsEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(290, 2),
            .next(310, 3),
            .completed(400),
        ])
        let res = scheduler.start(disposed: 300) { xs.map { $0 } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(290, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }
}
