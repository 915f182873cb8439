import RxSwift
import RxTest
import XCTest

final class ObservableSkipWhileTests: RxTestCase {
    func testSkipWhileDropsLeadingElementsThenSendsAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 10), .next(240, 4), .completed(300),
        ])
        let res = scheduler.start { xs.skip(while: { $0 < 5 }) }
        XCTAssertEqual(res.events, [.next(230, 10), .next(240, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testSkipWhileErrorDisposalAndThrowingPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.skip(while: { $0 < 5 }) }
        XCTAssertEqual(res.events, [.error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 9), .next(1260, 1)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.skip(while: { $0 < 5 }) }
        XCTAssertEqual(disposed.events, [.next(1210, 9)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, 1), .next(2220, 2), .next(2230, 3)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.skip(while: { value in
                if value == 2 { throw testError1 }
                return true
            })
        }
        XCTAssertEqual(thrown.events, [.error(2220, testError1)])
        XCTAssertEqual(zs.subscriptions, [Subscription(2200, 2220)])
    }

    func testSkipWhilePredicateIsNotCalledOnceOpen() {
        var calls: [Int] = []
        let subscription = Observable.of(1, 7, 2, 3).skip(while: { value in
            calls.append(value)
            return value < 5
        }).subscribe()
        XCTAssertEqual(calls, [1, 7])
        subscription.dispose()
    }

    func testSkipWhileReentrantObserverFeedingSource() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.skip(while: { $0 < 5 }).subscribe(onNext: { value in
                values.append(value)
                if value == 5 { subject.onNext(1) }
            })
            subject.onNext(1)
            subject.onNext(5)
            subscription.dispose()
        }
        XCTAssertEqual(values, [5, 1])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
