import RxSwift
import RxTest
import XCTest

final class ObservableTakeWhileTests: RxTestCase {
    func testTakeWhileExclusiveCompletesAtFirstFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 10), .next(240, 4), .completed(300),
        ])
        let res = scheduler.start { xs.take(while: { $0 < 5 }) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTakeWhileInclusiveSendsTheFailingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 10), .next(240, 4), .completed(300)])
        let res = scheduler.start { xs.take(while: { $0 < 5 }, behavior: .inclusive) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(230, 10), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testTakeUntilPredicateBothBehaviors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let exclusive = scheduler.start { xs.take(until: { $0 == 2 }) }
        XCTAssertEqual(exclusive.events, [.next(210, 1), .completed(220)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .next(1230, 3), .completed(1300)])
        let inclusive = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.take(until: { $0 == 2 }, behavior: .inclusive) }
        XCTAssertEqual(inclusive.events, [.next(1210, 1), .next(1220, 2), .completed(1220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1220)])
    }

    func testTakeWhileErrorsDisposalAndThrowingPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.take(while: { $0 < 5 }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1260, 2)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.take(while: { $0 < 5 }) }
        XCTAssertEqual(disposed.events, [.next(1210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1), .next(2220, 2)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.take(until: { value in
                if value == 2 { throw testError1 }
                return false
            })
        }
        XCTAssertEqual(thrown.events, [.next(2210, 1), .error(2220, testError1)])
        XCTAssertEqual(zs.subscriptions, [Subscription(2200, 2220)])
    }

    func testTakeWhileReentrantFailingElementEndsSequence() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.take(while: { $0 < 5 }).subscribe { event in
                events.append(event)
                if case .next(1) = event {
                    subject.onNext(9)
                    subject.onNext(2)
                }
            }
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(events, [.next(1), .completed])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
