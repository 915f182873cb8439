import RxSwift
import RxTest
import XCTest

final class ObservableRefCountTests: RxTestCase {
    func testRefCountConnectsWithFirstAndDisconnectsAfterLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let shared = xs.publish().refCount()
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let c = scheduler.createObserver(Int.self)
        var subscriptions: [String: Disposable] = [:]
        scheduler.scheduleAt(205) { subscriptions["a"] = shared.subscribe(a) }
        scheduler.scheduleAt(215) { subscriptions["b"] = shared.subscribe(b) }
        scheduler.scheduleAt(225) { subscriptions["a"]!.dispose() }
        scheduler.scheduleAt(235) { subscriptions["b"]!.dispose() }
        scheduler.scheduleAt(238) { subscriptions["c"] = shared.subscribe(c) }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(b.events, [.next(220, 2), .next(230, 3)])
        XCTAssertEqual(c.events, [.next(240, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 235), Subscription(238, 250)])
        subscriptions.values.forEach { $0.dispose() }
    }

    func testRefCountAfterTerminationReconnectsThroughAFreshSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let shared = xs.publish().refCount()
        let res = scheduler.start { shared }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        let late = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { shared }
        // The terminated connection dropped its subject: a late subscriber connects again.
        XCTAssertEqual(late.events, [.next(1210, 1), .completed(1220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(1200, 1220)])
    }

    func testRefCountErrorAndDisposalMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.publish().refCount() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1260, 2)])
        let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.publish().refCount() }
        XCTAssertEqual(res2.events, [.next(1210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testRefCountObserverUnsubscribingReentrantlyDisconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let shared = xs.publish().refCount()
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = shared.subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }
}
