import RxSwift
import RxTest
import XCTest

final class ObservableMergeTests: RxTestCase {
    func testStaticMergeVariadic() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 3), .completed(250)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(240, 4), .completed(260)])
        let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testStaticMergeArrayError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3)])
        let ys = scheduler.createHotObservable([.next(220, 2), .error(225, testError)])
        let res = scheduler.start { Observable.merge([xs.asObservable(), ys.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testStaticMergeCollectionAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(5, 2), .completed(30)])
        let sources = [xs.asObservable(), ys.asObservable()][...]
        let res = scheduler.start { Observable.merge(sources) }
        XCTAssertEqual(res.events, [.next(205, 2), .next(210, 1), .completed(230)])

        let empty = scheduler.start(created: 1000, subscribed: 1100, disposed: 2000) { Observable<Int>.merge([Observable<Int>]()) }
        XCTAssertEqual(empty.events, [.completed(1100)])
    }

    func testMergeOfInnerSequences() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(5, 1), .next(50, 2), .completed(60)])
        let inner2 = scheduler.createColdObservable([.next(5, 10), .completed(10)])
        let xs = scheduler.createHotObservable([
            .next(210, inner1.asObservable()), .next(220, inner2.asObservable()), .completed(230),
        ])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(215, 1), .next(225, 10), .next(260, 2), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(inner1.subscriptions, [Subscription(210, 270)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(220, 230)])
    }

    func testMergeMaxConcurrentQueuesInnerSequences() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner1 = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let inner2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let inner3 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let xs = scheduler.createHotObservable([
            .next(210, inner1.asObservable()), .next(211, inner2.asObservable()), .next(212, inner3.asObservable()), .completed(215),
        ])
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(221, 2), .next(241, 3), .completed(260)])
        XCTAssertEqual(inner1.subscriptions, [Subscription(210, 260)])
        XCTAssertEqual(inner2.subscriptions, [Subscription(211, 231)])
        XCTAssertEqual(inner3.subscriptions, [Subscription(231, 251)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    func testMergeInnerErrorAndDisposalMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let inner = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let xs = scheduler.createHotObservable([.next(210, inner.asObservable())])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(220, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let slow = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
        let ys = scheduler.createHotObservable([.next(1210, slow.asObservable())])
        let res2 = scheduler.start(created: 1000, subscribed: 1200, disposed: 1250) { ys.merge(maxConcurrent: 1) }
        XCTAssertEqual(res2.events, [.next(1220, 1)])
        XCTAssertEqual(slow.subscriptions, [Subscription(1210, 1250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testMergeReentrantElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = PublishSubject<Int>()
        let ys = PublishSubject<Int>()
        var received: [Recorded<Event<Int>>] = []
        let subscription = Observable.merge(xs, ys).subscribe { event in
            received.append(Recorded(time: scheduler.clock, value: event))
            if case .next(1) = event {
                ys.onNext(2)
            }
        }
        scheduler.scheduleAt(210) { xs.onNext(1) }
        let anomalies = recordingAnomalies { scheduler.start() }
        XCTAssertEqual(received, [.next(210, 1), .next(210, 2)])
        XCTAssertEqual(Set(anomalies), reentrancyIsTracked ? [.reentrancy] : [])
        subscription.dispose()
    }
}
