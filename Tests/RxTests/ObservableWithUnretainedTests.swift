import RxSwift
import RxTest
import XCTest

/// `withUnretained`: pairs elements with a weakly held object, completing once it is gone.
final class ObservableWithUnretainedTests: RxTestCase {
    private final class Owner {
        let name: String
        init(_ name: String) { self.name = name }
    }

    func testPairsElementsWithTheObject() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner("o")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let tuples = scheduler.start { xs.withUnretained(owner).map { "\($0.name)\($1)" } }
        XCTAssertEqual(tuples.events, [.next(210, "o1"), .next(220, "o2"), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])

        let ys = scheduler.createHotObservable([.next(1210, 1), .error(1220, testError)])
        let selected = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.withUnretained(owner) { owner, value in owner.name + String(value * 3) }
        }
        XCTAssertEqual(selected.events, [.next(1210, "o3"), .error(1220, testError)])
    }

    func testCompletesAtTheFirstElementAfterTheObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner("o")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        weak let weakOwner = owner
        let stream = xs.withUnretained(owner!) { owner, value in "\(owner.name)\(value)" }
        scheduler.scheduleAt(215) { owner = nil }
        let res = scheduler.start { stream }
        XCTAssertNil(weakOwner)
        XCTAssertEqual(res.events, [.next(210, "o1"), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
