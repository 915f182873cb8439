import RxSwift
import RxTest
import XCTest

final class ObservableIgnoreElementsTests: RxTestCase {
    func testIgnoreElementsKeepsOnlyCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testIgnoreElementsErrorDisposalAndThrowingUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .completed(1300)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.ignoreElements() }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.map { _ -> Int in throw testError1 }.ignoreElements()
        }
        XCTAssertEqual(thrown.events, [.error(2210, testError1)])
    }

    func testIgnoreElementsReentrantObserverOnCompletion() {
        let subject = PublishSubject<Int>()
        var completions = 0
        let subscription = subject.ignoreElements().subscribe(onCompleted: {
            completions += 1
            subject.onNext(1)
            subject.onCompleted()
        })
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(completions, 1)
        subscription.dispose()
    }
}
