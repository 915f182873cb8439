import RxSwift
import RxTest
import XCTest

final class ObservableSkipUntilTests: RxTestCase {
    func testSkipUntilSendsElementsAfterOtherFires() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(300),
        ])
        let other = scheduler.createHotObservable([.next(150, "x"), .next(225, "go"), .completed(250)])
        let res = scheduler.start { xs.skip(until: other) }
        XCTAssertEqual(res.events, [.next(230, 4), .next(240, 5), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
    }

    func testSkipUntilOtherNeverFiringSendsNothingNotEvenCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(250)])
        let other = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.skip(until: other) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])
    }

    func testSkipUntilErrorsOfEitherSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let other = scheduler.createHotObservable([.next(300, 0)])
        let res = scheduler.start { xs.skip(until: other) }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 230)])

        let ys = scheduler.createHotObservable([.next(1210, 2), .next(1260, 3)])
        let failing = scheduler.createHotObservable([.error(1220, testError1)] as [Recorded<Event<Int>>])
        let otherFails = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.skip(until: failing) }
        XCTAssertEqual(otherFails.events, [.error(1220, testError1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1220)])
    }

    func testSkipUntilDisposedMidStreamAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, 2), .next(260, 3)])
        let other = scheduler.createHotObservable([.next(220, 0)])
        let res = scheduler.start(disposed: 250) { xs.skip(until: other) }
        XCTAssertEqual(res.events, [.next(230, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])

        let ys = scheduler.createHotObservable([.next(1230, 1), .next(1240, 2)])
        let open = scheduler.createHotObservable([.next(1220, 0)])
        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.map { value -> Int in
                if value == 2 { throw testError }
                return value
            }.skip(until: open)
        }
        XCTAssertEqual(thrown.events, [.next(1230, 1), .error(1240, testError)])
    }

    func testSkipUntilObserverFeedingSourceReentrantly() {
        let source = PublishSubject<Int>()
        let gate = PublishSubject<Void>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = source.skip(until: gate).subscribe(onNext: { value in
                values.append(value)
                if value == 2 { source.onNext(3) }
            })
            source.onNext(1)
            gate.onNext(())
            source.onNext(2)
            subscription.dispose()
        }
        XCTAssertEqual(values, [2, 3])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }

    func testSkipUntilOtherFailingAtSubscriptionNeverSubscribesSource() {
        var subscribed = false
        let source = Observable<Int>.deferred {
            subscribed = true
            return .never()
        }
        var events: [Event<Int>] = []
        let subscription = source.skip(until: Observable<Int>.error(testError)).subscribe { events.append($0) }
        XCTAssertEqual(events, [.error(testError)])
        XCTAssertFalse(subscribed)
        subscription.dispose()
    }
}
