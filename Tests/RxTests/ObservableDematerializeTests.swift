import RxSwift
import RxTest
import XCTest

final class ObservableDematerializeTests: RxTestCase {
    func testDematerializeTurnsElementsBackIntoEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, Event.next(1)), .next(210, Event.next(2)), .next(220, Event<Int>.completed), .next(230, Event.next(3)), .completed(300),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDematerializeErrorElementAndSourceErrorBothFail() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event.next(2)), .next(220, Event<Int>.error(testError))])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let ys = scheduler.createHotObservable([.next(1210, Event.next(2)), .error(1220, testError1)])
        let sourceFails = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.dematerialize() }
        XCTAssertEqual(sourceFails.events, [.next(1210, 2), .error(1220, testError1)])
    }

    func testDematerializeRoundTripDisposalAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.materialize().dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2)])
        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.map { value -> Int in
                if value == 2 { throw testError2 }
                return value
            }.materialize().dematerialize()
        }
        XCTAssertEqual(thrown.events, [.next(1210, 1), .error(1220, testError2)])
    }

    func testDematerializeReentrantObserverFeedingSource() {
        let subject = PublishSubject<Event<Int>>()
        var events: [Event<Int>] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.dematerialize().subscribe { event in
                events.append(event)
                if case .next(1) = event { subject.onNext(.completed) }
            }
            subject.onNext(.next(1))
            subject.onNext(.next(2))
            subscription.dispose()
        }
        XCTAssertEqual(events, [.next(1), .completed])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
