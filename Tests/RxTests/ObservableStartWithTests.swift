import RxSwift
import RxTest
import XCTest

final class ObservableStartWithTests: RxTestCase {
    func testStartWithSendsPrefixAtSubscriptionThenSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 4), .completed(300)])
        let res = scheduler.start { xs.startWith(2, 3) }
        XCTAssertEqual(res.events, [.next(200, 2), .next(200, 3), .next(220, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testStartWithChainedPrefixesComeOutermostFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.startWith(2).startWith(1) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(250)])
    }

    func testStartWithErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 5), .error(250, testError)])
        let res = scheduler.start { xs.startWith(0) }
        XCTAssertEqual(res.events, [.next(200, 0), .next(210, 5), .error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 5), .next(1260, 6)])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.startWith(0) }
        XCTAssertEqual(disposed.events, [.next(1200, 0), .next(1210, 5)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])
    }

    func testStartWithThrowingDownstreamClosureFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 5), .completed(300)])
        let res = scheduler.start {
            xs.startWith(1, 2).map { value -> Int in
                if value == 2 { throw testError }
                return value
            }
        }
        XCTAssertEqual(res.events, [.next(200, 1), .error(200, testError)])
    }

    func testStartWithReentrantObserverFeedingSource() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.startWith(0).subscribe(onNext: { value in
                values.append(value)
                if value == 1 { subject.onNext(2) }
            })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(values, [0, 1, 2])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
