import RxSwift
import RxTest
import XCTest

final class ObservableElementAtTests: RxTestCase {
    func testElementAtSendsThatElementAndCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
        ])
        let res = scheduler.start { xs.element(at: 1) }
        XCTAssertEqual(res.events, [.next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testElementAtPastTheEndFailsWithArgumentOutOfRange() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.element(at: 3) }
        XCTAssertEqual(res.events, [.error(250, RxError.argumentOutOfRange)])
    }

    func testElementAtErrorDisposalAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.element(at: 2) }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1260, 2)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.element(at: 1) }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1), .next(2220, 2)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.map { value -> Int in
                if value == 1 { throw testError1 }
                return value
            }.element(at: 1)
        }
        XCTAssertEqual(thrown.events, [.error(2210, testError1)])
    }

    func testElementAtReentrantElementIsCounted() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject
            .do(onNext: { if $0 == 1 { subject.onNext(2) } })
            .element(at: 0)
            .subscribe { events.append($0) }
        _ = recordingAnomalies { subject.onNext(1) }
        // The reentrant 2 reaches `element(at:)` before 1 does.
        XCTAssertEqual(events, [.next(2), .completed])
        subscription.dispose()
    }
}
