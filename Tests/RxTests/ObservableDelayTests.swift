import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableDelayTests: RxTestCase {
    func testDelayShiftsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(250, 2),
            .next(350, 3),
            .next(450, 4),
            .completed(550),
        ])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(350, 2),
            .next(450, 3),
            .next(550, 4),
            .completed(650),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDelayKeepsOrderOfCloseElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(211, 2), .next(215, 3), .completed(216)])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(221, 2), .next(225, 3), .completed(226)])
    }

    /// An element that comes after the queue emptied starts a fresh drain, due its delay after
    /// it; the events that come while it waits keep their own arrival times.
    func testDelayStartsAFreshDrainAfterTheQueueEmptied() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2), .next(303, 3), .completed(304)])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(310, 2), .next(313, 3), .completed(314)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 304)])
    }

    /// The sink keeps the two oldest waiting events itself and the rest in an array: events
    /// that arrive while that array is drained, and after it emptied, keep their order and times.
    func testDelayKeepsOrderAcrossItsTwoSlotsAndItsArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(211, 2), .next(212, 3), .next(213, 4), .next(218, 5), .next(224, 6), .completed(235),
        ])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(220, 1), .next(221, 2), .next(222, 3), .next(223, 4), .next(228, 5), .next(234, 6), .completed(245),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    /// An error drops every waiting event, those in the array too; the next subscription starts empty.
    func testDelayErrorDropsEventsBeyondItsTwoSlots() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(211, 2), .next(212, 3), .next(213, 4), .error(215, testError)])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(215, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    /// RxSwift's drain rule: each drain sends one event and schedules the next for when it
    /// is due; an event already due (same arrival time) goes in the next drain, one tick later.
    func testDelaySendsOneEventPerDrain() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3).delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(206, 2), .next(207, 3), .completed(208)])
    }

    /// An error while elements wait is sent at once and drops them.
    func testDelayErrorDropsWaitingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .error(220, testError)])
        let res = scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDelayDoesNotDelayErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .error(260, testError)])
        let res = scheduler.start { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testDelayDisposedDropsPendingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let res = scheduler.start(disposed: 260) { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testDelayOnDispatchQueueDeliversLater() throws {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "delay-test")
        let start = Date()
        let values = try Observable.of(1, 2, 3).delay(.milliseconds(50), scheduler: scheduler).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.045)
    }
}
