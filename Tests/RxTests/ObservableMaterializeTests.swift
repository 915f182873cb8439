import RxSwift
import RxTest
import XCTest

final class ObservableMaterializeTests: RxTestCase {
    func testMaterializeTurnsEventsIntoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [
            .next(210, Event.next(2)), .next(220, Event.next(3)), .next(250, Event<Int>.completed), .completed(250),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMaterializeErrorBecomesElementThenCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(250, testError)])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, Event.next(2)), .next(250, Event<Int>.error(testError)), .completed(250)])
    }

    func testMaterializeDisposalAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3)])
        let res = scheduler.start(disposed: 250) { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, Event.next(2))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])

        let ys = scheduler.createHotObservable([.next(1210, 1)])
        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.map { _ -> Int in throw testError1 }.materialize()
        }
        XCTAssertEqual(thrown.events, [.next(1210, Event<Int>.error(testError1)), .completed(1210)])
    }

    func testMaterializeReentrantObserverFeedingSource() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.materialize().subscribe(onNext: { event in
                events.append(event)
                if case .next(1) = event { subject.onError(testError) }
            })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(events, [.next(1), .error(testError)])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
