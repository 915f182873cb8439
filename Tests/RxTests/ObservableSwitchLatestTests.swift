import RxSwift
import RxTest
import XCTest

final class ObservableSwitchLatestTests: RxTestCase {
    func testSwitchLatestFollowsNewestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, 11), .next(30, 12), .completed(100)])
        let inner2 = scheduler.createColdObservable([.next(5, 21), .next(15, 22), .completed(20)])
        let xs = scheduler.createHotObservable([
            .next(210, inner1.asObservable()), .next(230, inner2.asObservable()), .completed(300),
        ])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 11), .next(235, 21), .next(245, 22), .completed(300)])
        XCTAssertEqual(inner1.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(230, 250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSwitchLatestWaitsForLatestInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, inner.asObservable()), .completed(250)])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(410)])
    }

    func testSwitchLatestErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let xs = scheduler.createHotObservable([.next(210, inner.asObservable())])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let quiet = scheduler.createColdObservable([.next(500, 1)])
        let ys = scheduler.createHotObservable([.next(1210, quiet.asObservable()), .error(1220, testError1)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.switchLatest() }
        XCTAssertEqual(res2.events, [.error(1220, testError1)])
        XCTAssertEqual(quiet.subscriptions, [Subscription(1210, 1220)])
    }

    func testSwitchLatestDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let xs = scheduler.createHotObservable([.next(210, inner.asObservable())])
        let res = scheduler.start(disposed: 250) { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 250)])
    }

    func testSwitchLatestReentrantSwitch() {
        let scheduler = TestScheduler(initialClock: 0)
        let outer = PublishSubject<Observable<Int>>()
        let first = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = outer.switchLatest().subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                outer.onNext(Observable.of(2, 3))
                first.onNext(99)
            }
        }
        scheduler.scheduleAt(210) { outer.onNext(first) }
        scheduler.scheduleAt(220) { first.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(220, 1), .next(220, 2), .next(220, 3)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        XCTAssertFalse(first.hasObservers)
        subscription.dispose()
    }
}
