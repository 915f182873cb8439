import RxSwift
import RxTest
import XCTest

final class ObservableTakeLastTests: RxTestCase {
    func testTakeLastSendsLastElementsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
        ])
        let res = scheduler.start { xs.takeLast(3) }
        XCTAssertEqual(res.events, [.next(300, 2), .next(300, 3), .next(300, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testTakeLastWithFewerElementsAndZeroCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let fewer = scheduler.start { xs.takeLast(5) }
        XCTAssertEqual(fewer.events, [.next(250, 1), .completed(250)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .completed(1250)])
        let zero = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { ys.takeLast(0) }
        XCTAssertEqual(zero.events, [.completed(1250)])
    }

    func testTakeLastErrorDropsBufferAndDisposalSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.takeLast(2) }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .completed(1300)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.takeLast(2) }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testTakeLastThrowingUpstreamClosure() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start {
            xs.map { value -> Int in
                if value == 2 { throw testError }
                return value
            }.takeLast(2)
        }
        XCTAssertEqual(res.events, [.error(220, testError)])
    }

    func testTakeLastReentrantObserverFeedingSourceAfterCompletion() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.takeLast(2).subscribe { event in
            events.append(event)
            if case .next(2) = event { subject.onNext(99) }
        }
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subject.onCompleted()
        XCTAssertEqual(events, [.next(2), .next(3), .completed])
        subscription.dispose()
    }
}
