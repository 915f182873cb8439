import Rx
import RxTest
import XCTest

final class ObservableBindWithTests: RxTestCase {
    func testBindWithObjectHoldsItWeaklyAndIgnoresElementsAfterItIsGone() {
        final class Counter { var total = 0 }
        var counter: Counter? = Counter()
        weak let weakCounter = counter
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 4), .completed(250)])
        var totals: [Int] = []
        let subscription = xs.bind(with: counter!) { counter, value in
            counter.total += value
            totals.append(counter.total)
        }
        scheduler.scheduleAt(230) { counter = nil }
        scheduler.start()
        XCTAssertNil(weakCounter, "the binding does not keep the object alive")
        XCTAssertEqual(totals, [1, 3])
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 250)])
        subscription.dispose()
    }
}
