import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableRangeTests: RxTestCase {
    func testRangeSendsConsecutiveIntegersOneTickApartThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: 5, count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 5), .next(202, 6), .next(203, 7), .completed(204)])
    }

    func testRangeWithZeroCountOnlyCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.range(start: 1, count: 0, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testRangeDisposedMidStreamStops() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) { Observable.range(start: 1, count: 100, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2)])
    }

    func testRangeUpToMaxDoesNotOverflow() throws {
        let values = try Observable<Int8>.range(start: 125, count: 3).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [125, 126, 127])
    }

    func testRangeOnTrampolineRunsToCompletionBeforeSubscribeReturns() {
        var values: [Int] = []
        var completed = false
        let subscription = Observable.range(start: 0, count: 100_000).subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        // The trampoline sends every element before `subscribe` returns, one after the
        // other (the stack does not grow with the count).
        XCTAssertEqual(values.count, 100_000)
        XCTAssertEqual(values.last, 99_999)
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testRangeReentrantSubscriptionFromObserverIsQueued() {
        // A subscription made while an element is delivered does not nest: both sequences
        // take turns on the trampoline's queue.
        var values: [String] = []
        let range = Observable.range(start: 1, count: 2)
        var inner: Disposable?
        let outer = range.subscribe(onNext: { value in
            values.append("outer \(value)")
            if value == 1 {
                inner = range.subscribe(onNext: { values.append("inner \($0)") })
            }
        })
        XCTAssertEqual(values, ["outer 1", "inner 1", "outer 2", "inner 2"])
        outer.dispose()
        inner?.dispose()
    }
}
