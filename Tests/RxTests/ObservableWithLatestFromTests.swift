import RxSwift
import RxTest
import XCTest

final class ObservableWithLatestFromTests: RxTestCase {
    func testWithLatestFromCombinesWithSecondsLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([
            .next(210, 1),
            .next(230, 2),
            .next(260, 3),
            .completed(300),
        ])
        let second = scheduler.createHotObservable([
            .next(220, "a"),
            .next(250, "b"),
            .completed(270),
        ])
        let res = scheduler.start { first.withLatestFrom(second) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(230, "2a"), .next(260, "3b"), .completed(300)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(second.subscriptions, [Subscription(200, 270)])
    }

    func testWithLatestFromWithoutSelectorSendsSecondsValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(210, ()), .next(230, ()), .next(250, ())])
        let second = scheduler.createHotObservable([.next(220, 1), .next(240, 2)])
        let res = scheduler.start { first.withLatestFrom(second) }
        XCTAssertEqual(res.events, [.next(230, 1), .next(250, 2)])
    }

    func testWithLatestFromSecondErrorEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let second = scheduler.createHotObservable([.next(205, 1), .error(230, testError)])
        let res = scheduler.start { first.withLatestFrom(second) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(210, 2), .error(230, testError)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(second.subscriptions, [Subscription(200, 230)])
    }

    func testWithLatestFromFirstErrorAndSelectorError() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError1)])
        let second = scheduler.createHotObservable([.next(205, 1)])
        let res = scheduler.start {
            first.withLatestFrom(second) { a, b -> Int in
                if a == 2 { throw testError2 }
                return a + b
            }
        }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError2)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
    }

    func testWithLatestFromDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let second = scheduler.createHotObservable([.next(205, 10)])
        let res = scheduler.start(disposed: 250) { first.withLatestFrom(second) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(210, 11)])
        XCTAssertEqual(first.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(second.subscriptions, [Subscription(200, 250)])
    }
}
