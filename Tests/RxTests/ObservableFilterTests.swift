import RxSwift
import RxTest
import XCTest

final class ObservableFilterTests: RxTestCase {
    func testFilterKeepsPassingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(110, 1),
            .next(210, 2),
            .next(230, 3),
            .next(270, 4),
            .completed(600),
        ])
        let res = scheduler.start { xs.filter { $0 % 2 == 0 } }
        XCTAssertEqual(res.events, [.next(210, 2), .next(270, 4), .completed(600)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testFilterForwardsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError), .next(230, 4)])
        let res = scheduler.start { xs.filter { _ in true } }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testFilterThrowingPredicateEndsWithItsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let res = scheduler.start { xs.filter { value in
            if value == 2 { throw testError }
            return true
        } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testFilterDisposedMidStream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(260, 4), .next(300, 6)])
        let res = scheduler.start(disposed: 250) { xs.filter { $0 > 0 } }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testMapFilterChainOfSixPairs() {
        var results: [Int] = []
        var chain = Observable.from(Array(1...10))
        for _ in 0..<6 {
            chain = chain.map { $0 + 1 }.filter { $0 % 2 == 0 || $0 > 5 }
        }
        _ = chain.subscribe(onNext: { results.append($0) })
        // Recompute with plain Swift to check the operators compose like functions.
        var expected: [Int] = []
        for value in 1...10 {
            var current = value
            var kept = true
            for _ in 0..<6 {
                current += 1
                if !(current % 2 == 0 || current > 5) { kept = false; break }
            }
            if kept { expected.append(current) }
        }
        XCTAssertEqual(results, expected)
    }
}
