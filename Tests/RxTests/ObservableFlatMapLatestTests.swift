import RxSwift
import RxTest
import XCTest

final class ObservableFlatMapLatestTests: RxTestCase {
    func testFlatMapLatestSwitchesToNewestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, 11), .next(30, 12), .completed(100)])
        let inner2 = scheduler.createColdObservable([.next(5, 21), .next(15, 22), .completed(20)])
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(230, 2),
            .completed(300),
        ])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? inner1 : inner2 } }
        XCTAssertEqual(res.events, [
            .next(220, 11),
            .next(235, 21),
            .next(245, 22),
            .completed(300),
        ])
        XCTAssertEqual(inner1.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(230, 250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFlatMapLatestWaitsForLatestInnerToComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.flatMapLatest { _ in inner } }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(410)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testFlatMapLatestInnerErrorAndSelectorError() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let res = scheduler.start { xs.flatMapLatest { _ in inner } }
        XCTAssertEqual(res.events, [.next(220, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let ys = scheduler.createHotObservable([.next(1010, 1), .next(1020, 2)])
        let res2 = scheduler.start(created: 1000, subscribed: 1000, disposed: 2000) {
            ys.flatMapLatest { value -> Observable<Int> in
                if value == 2 { throw testError1 }
                return Observable.just(value)
            }
        }
        XCTAssertEqual(res2.events, [.next(1010, 1), .error(1020, testError1)])
    }

    func testFlatMapLatestDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start(disposed: 250) { xs.flatMapLatest { _ in inner } }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 250)])
    }
}
