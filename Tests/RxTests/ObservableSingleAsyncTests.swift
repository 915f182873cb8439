import RxSwift
import RxTest
import XCTest

final class ObservableSingleAsyncTests: RxTestCase {
    func testSingleSendsTheOneElementThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testSingleFailsOnEmptyAndOnSecondElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let none = scheduler.start { empty.single() }
        XCTAssertEqual(none.events, [.error(250, RxError.noElements)])

        let xs = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .completed(1300)])
        let many = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { xs.single() }
        XCTAssertEqual(many.events, [.next(1210, 1), .error(1220, RxError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(1200, 1220)])
    }

    func testSinglePredicateCountsOnlyPassingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 4), .next(230, 5), .completed(300)])
        let one = scheduler.start { xs.single { $0 % 2 == 0 } }
        XCTAssertEqual(one.events, [.next(220, 4), .completed(300)])

        let ys = scheduler.createHotObservable([.next(1210, 2), .next(1220, 4)])
        let two = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.single { $0 % 2 == 0 } }
        XCTAssertEqual(two.events, [.next(1210, 2), .error(1220, RxError.moreThanOneElement)])
    }

    func testSingleErrorDisposalAndThrowingPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .completed(1300)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.single() }
        XCTAssertEqual(disposed.events, [.next(1210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.single { _ in throw testError1 }
        }
        XCTAssertEqual(thrown.events, [.error(2210, testError1)])
        XCTAssertEqual(zs.subscriptions, [Subscription(2200, 2210)])
    }

    func testSingleReentrantSecondElementFails() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.single().subscribe { event in
                events.append(event)
                if case .next(1) = event { subject.onNext(2) }
            }
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(events, [.next(1), .error(RxError.moreThanOneElement)])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
