import RxSwift
import RxTest
import XCTest

/// `Maybe`'s `filter`, `compactMap`, `ifEmpty`, `catchAndReturn` and `subscribe(with:)`.
final class MaybeOperatorTests: RxTestCase {
    func testFilterAndCompactMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 6), .completed(10)])
        let kept = scheduler.start { xs.asMaybe().filter { $0.isMultiple(of: 2) }.asObservable() }
        XCTAssertEqual(kept.events, [.next(210, 6), .completed(210)])
        let dropped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asMaybe().compactMap { $0 > 10 ? $0 : nil }.asObservable()
        }
        XCTAssertEqual(dropped.events, [.completed(1210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(1200, 1210)])
    }

    func testIfEmptyDefaultAndSwitchTo() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Int>>])
        let other = scheduler.createColdObservable([.next(5, 8), .completed(5)])
        let full = scheduler.createColdObservable([.next(10, 1), .completed(10)])

        let byDefault = scheduler.start { empty.asMaybe().ifEmpty(default: 3).asObservable() }
        XCTAssertEqual(byDefault.events, [.next(210, 3), .completed(210)])

        let toMaybe = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            empty.asMaybe().ifEmpty(switchTo: other.asMaybe()).asObservable()
        }
        XCTAssertEqual(toMaybe.events, [.next(1215, 8), .completed(1215)])

        let toSingle: Single<Int> = empty.asMaybe().ifEmpty(switchTo: other.asSingle())
        let single = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { toSingle.asObservable() }
        XCTAssertEqual(single.events, [.next(2215, 8), .completed(2215)])

        let notEmpty = scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) {
            full.asMaybe().ifEmpty(switchTo: other.asSingle()).asObservable()
        }
        XCTAssertEqual(notEmpty.events, [.next(3210, 1), .completed(3210)])
        XCTAssertEqual(other.subscriptions, [Subscription(1210, 1215), Subscription(2210, 2215)])
    }

    func testCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asMaybe().catchAndReturn(9).asObservable() }
        XCTAssertEqual(res.events, [.next(210, 9), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testSubscribeWithObjectGetsEveryKindOfResult() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        let values = PublishSubject<Int>()
        _ = values.asMaybe().subscribe(with: owner, onSuccess: { $0.log.append("success \($1)") }, onError: { owner, _ in owner.log.append("error") }, onCompleted: { $0.log.append("completed") }, onDisposed: { $0.log.append("disposed") })
        values.onCompleted()
        _ = Maybe<Int>.just(2).subscribe(with: owner, onSuccess: { $0.log.append("success \($1)") })
        _ = Maybe<Int>.error(testError).subscribe(with: owner, onError: { owner, error in owner.log.append("error \(error)") })
        XCTAssertEqual(owner.log, ["completed", "disposed", "success 2", "error TestError(1)"])
    }
}
