import RxSwift
import RxTest
import XCTest

final class ObservableEnumeratedTests: RxTestCase {
    func testEnumeratedPairsElementsWithIndexes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "z"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(300),
        ])
        let res = scheduler.start { xs.enumerated().map { "\($0.index):\($0.element)" } }
        XCTAssertEqual(res.events, [.next(210, "0:a"), .next(220, "1:b"), .next(230, "2:c"), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testEnumeratedErrorDisposalAndThrowingDownstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(250, testError)])
        let res = scheduler.start { xs.enumerated().map { $0.index } }
        XCTAssertEqual(res.events, [.next(210, 0), .error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, "a"), .next(1220, "b"), .next(1260, "c")])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) { ys.enumerated().map { $0.index } }
        XCTAssertEqual(disposed.events, [.next(1210, 0), .next(1220, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1250)])

        let zs = scheduler.createHotObservable([.next(2210, "a"), .next(2220, "b")])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            zs.enumerated().map { pair -> Int in
                if pair.index == 1 { throw testError1 }
                return pair.index
            }
        }
        XCTAssertEqual(thrown.events, [.next(2210, 0), .error(2220, testError1)])
        XCTAssertEqual(zs.subscriptions, [Subscription(2200, 2220)])
    }

    func testEnumeratedReentrantElementGetsNextIndex() {
        let subject = PublishSubject<String>()
        var values: [String] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.enumerated().subscribe(onNext: { pair in
                values.append("\(pair.index):\(pair.element)")
                if pair.index == 0 { subject.onNext("again") }
            })
            subject.onNext("first")
            subject.onNext("last")
            subscription.dispose()
        }
        XCTAssertEqual(values, ["0:first", "1:again", "2:last"])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
