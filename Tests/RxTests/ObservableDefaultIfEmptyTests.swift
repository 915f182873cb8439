import RxSwift
import RxTest
import XCTest

final class ObservableDefaultIfEmptyTests: RxTestCase {
    func testDefaultIfEmptySendsDefaultForEmptySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.defaultIfEmpty(7) }
        XCTAssertEqual(res.events, [.next(250, 7), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])

        let ys = scheduler.createHotObservable([.completed(1250)] as [Recorded<Event<Int>>])
        let named = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.ifEmpty(default: 8) }
        XCTAssertEqual(named.events, [.next(1250, 8), .completed(1250)])
    }

    func testDefaultIfEmptyPassesNonEmptySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.defaultIfEmpty(7) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(250)])
    }

    func testDefaultIfEmptyErrorDisposalAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(250, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.defaultIfEmpty(7) }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.completed(1300)] as [Recorded<Event<Int>>])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.defaultIfEmpty(7) }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.map { _ -> Int in throw testError1 }.defaultIfEmpty(7)
        }
        XCTAssertEqual(thrown.events, [.error(2210, testError1)])
    }

    func testDefaultIfEmptyReentrantObserverOnDefault() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.defaultIfEmpty(0).subscribe { event in
            events.append(event)
            if case .next(0) = event { subject.onNext(5) }
        }
        subject.onCompleted()
        XCTAssertEqual(events, [.next(0), .completed])
        subscription.dispose()
    }
}
