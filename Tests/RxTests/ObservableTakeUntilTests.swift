import RxSwift
import RxTest
import XCTest

final class ObservableTakeUntilTests: RxTestCase {
    func testTakeUntilOtherCompletesWhenOtherSendsAnElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let other = scheduler.createHotObservable([.next(150, "x"), .next(225, "stop"), .completed(250)])
        let res = scheduler.start { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
    }

    func testTakeUntilOtherCompletingWithoutElementChangesNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3), .completed(300)])
        let other = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<String>>])
        let res = scheduler.start { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(260, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])
    }

    func testTakeUntilErrorsOfEitherSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let other = scheduler.createHotObservable([.next(300, 0)])
        let res = scheduler.start { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(230, testError)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 230)])

        let ys = scheduler.createHotObservable([.next(1210, 2), .next(1260, 3)])
        let failing = scheduler.createHotObservable([.error(1220, testError1)] as [Recorded<Event<Int>>])
        let otherFails = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.take(until: failing) }
        XCTAssertEqual(otherFails.events, [.next(1210, 2), .error(1220, testError1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1220)])
    }

    func testTakeUntilDisposedMidStreamAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 3)])
        let other = scheduler.createHotObservable([.next(300, 0)])
        let res = scheduler.start(disposed: 250) { xs.take(until: other) }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(other.subscriptions, [Subscription(200, 250)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2)])
        let never = scheduler.createHotObservable([] as [Recorded<Event<Int>>])
        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.map { value -> Int in
                if value == 2 { throw testError }
                return value
            }.take(until: never)
        }
        XCTAssertEqual(thrown.events, [.next(1210, 1), .error(1220, testError)])
        XCTAssertEqual(never.subscriptions, [Subscription(1200, 1220)])
    }

    func testTakeUntilObserverTriggeringOtherReentrantlyCompletes() {
        let source = PublishSubject<Int>()
        let stop = PublishSubject<Void>()
        var events: [Event<Int>] = []
        let subscription = source.take(until: stop).subscribe { event in
            events.append(event)
            if case .next(2) = event { stop.onNext(()) }
        }
        source.onNext(1)
        source.onNext(2)
        source.onNext(3)
        XCTAssertEqual(events, [.next(1), .next(2), .completed])
        XCTAssertFalse(source.hasObservers)
        XCTAssertFalse(stop.hasObservers)
        subscription.dispose()
    }

    func testTakeUntilOtherFiringAtSubscriptionNeverSubscribesSource() {
        var subscribed = false
        let source = Observable<Int>.deferred {
            subscribed = true
            return .never()
        }
        var events: [Event<Int>] = []
        let subscription = source.take(until: Observable.just(())).subscribe { events.append($0) }
        XCTAssertEqual(events, [.completed])
        XCTAssertFalse(subscribed)
        subscription.dispose()
    }
}
