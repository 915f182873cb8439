import RxSwift
import RxTest
import XCTest

final class ObservableCompactMapTests: RxTestCase {
    func testCompactMapSendsNonNilResultsAtTheirTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "0"), .next(210, "1"), .next(220, "x"), .next(230, "3"), .completed(300),
        ])
        let res = scheduler.start { xs.compactMap { Int($0) } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCompactMapForwardsErrorAndThrownError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.compactMap { $0 * 2 } }
        XCTAssertEqual(res.events, [.next(210, 2), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .completed(1300)])
        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.compactMap { value -> Int? in
                if value == 2 { throw testError1 }
                return value
            }
        }
        XCTAssertEqual(thrown.events, [.next(1210, 1), .error(1220, testError1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1220)])
    }

    func testCompactMapDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.compactMap { $0 } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testCompactMapReentrantObserverFeedingSource() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.compactMap { $0 % 2 == 0 ? nil : $0 }.subscribe(onNext: { value in
                values.append(value)
                if value == 1 {
                    subject.onNext(2)
                    subject.onNext(3)
                }
            })
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(values, [1, 3])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
