import RxSwift
import RxTest
import XCTest

final class ObservableScanTests: RxTestCase {
    func testScanSendsRunningAccumulation() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(300),
        ])
        let res = scheduler.start { xs.scan(10, accumulator: +) }
        XCTAssertEqual(res.events, [.next(210, 12), .next(220, 15), .next(230, 19), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testScanIntoMutatesAccumulatorInPlace() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
        let res = scheduler.start { xs.scan(into: [String]()) { $0.append($1) }.map { $0.joined() } }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(220, "ab"), .completed(230)])
    }

    func testScanEachSubscriptionStartsFromSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let scanned = xs.scan(0, accumulator: +)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = scanned.subscribe(first) }
        scheduler.scheduleAt(200) { _ = scanned.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(110, 1), .next(120, 3), .completed(130)])
        XCTAssertEqual(second.events, [.next(210, 1), .next(220, 3), .completed(230)])
    }

    func testScanForwardsErrorAndThrownError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let res = scheduler.start { xs.scan(0, accumulator: +) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, testError)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .next(1220, 2), .next(1230, 3)])
        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.scan(into: 0) { sum, value in
                if value == 2 { throw testError1 }
                sum += value
            }
        }
        XCTAssertEqual(thrown.events, [.next(1210, 1), .error(1220, testError1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1220)])
    }

    func testScanDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let res = scheduler.start(disposed: 250) { xs.scan(0, accumulator: +) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testScanReentrantObserverSeesAccumulationInOrder() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let anomalies = recordingAnomalies {
            let subscription = subject.scan(0, accumulator: +).subscribe(onNext: { value in
                values.append(value)
                if value == 1 { subject.onNext(10) }
            })
            subject.onNext(1)
            subject.onNext(100)
            subscription.dispose()
        }
        XCTAssertEqual(values, [1, 11, 111])
        XCTAssertEqual(anomalies.contains(.reentrancy), reentrancyIsTracked)
    }
}
