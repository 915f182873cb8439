import RxSwift
import RxTest
import XCTest

final class ObservableRepeatElementTests: RxTestCase {
    func testRepeatElementSendsTheElementEveryTickUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 204) { Observable.repeatElement(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 42), .next(202, 42), .next(203, 42)])
    }

    func testRepeatElementWithTakeStopsOnTrampoline() {
        var values: [String] = []
        let subscription = Observable.repeatElement("a").take(3).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, ["a", "a", "a"])
        subscription.dispose()
    }

    func testRepeatElementObserverDisposingItStopsIt() {
        var count = 0
        var subscription: Disposable?
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.scheduleAt(100) {
            subscription = Observable.repeatElement(1, scheduler: scheduler).subscribe(onNext: { _ in
                count += 1
                if count == 5 { subscription?.dispose() }
            })
        }
        scheduler.advanceTo(200)
        XCTAssertEqual(count, 5)
    }
}
