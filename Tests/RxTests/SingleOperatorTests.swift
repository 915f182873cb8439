import RxSwift
import RxTest
import XCTest

/// `Single`'s `filter`, `flatMapMaybe`, `flatMapCompletable`, `compactMap`, `catch`,
/// `retry` and `subscribe(with:)`.
final class SingleOperatorTests: RxTestCase {
    func testFilterGivesMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 4), .completed(10)])
        let kept = scheduler.start { xs.asSingle().filter { $0 > 3 }.asObservable() }
        XCTAssertEqual(kept.events, [.next(210, 4), .completed(210)])
        let dropped = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asSingle().filter { $0 > 4 }.asObservable()
        }
        XCTAssertEqual(dropped.events, [.completed(1210)])
        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            xs.asSingle().filter { _ in throw testError }.asObservable()
        }
        XCTAssertEqual(thrown.events, [.error(2210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(1200, 1210), Subscription(2200, 2210)])
    }

    func testFlatMapMaybeAndCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 2), .completed(10)])
        let inner = scheduler.createColdObservable([.next(15, 7), .completed(15)])
        let done = scheduler.createColdObservable([.completed(5)] as [Recorded<Event<Never>>])
        let maybe = scheduler.start { xs.asSingle().flatMapMaybe { value in inner.asMaybe().map { $0 * value } }.asObservable() }
        XCTAssertEqual(maybe.events, [.next(225, 14), .completed(225)])
        XCTAssertEqual(inner.subscriptions, [Subscription(210, 225)])

        let completable = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asSingle().flatMapCompletable { _ in done.asCompletable() }.asObservable()
        }
        XCTAssertEqual(completable.events, [.completed(1215)])
        XCTAssertEqual(done.subscriptions, [Subscription(1210, 1215)])

        let thrown = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            xs.asSingle().flatMapCompletable { _ in throw testError }.asObservable()
        }
        XCTAssertEqual(thrown.events, [.error(2210, testError)])
    }

    func testCompactMapAndCatch() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "5"), .completed(10)])
        let ys = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<String>>])
        let parsed = scheduler.start { xs.asSingle().compactMap { Int($0) }.asObservable() }
        XCTAssertEqual(parsed.events, [.next(210, 5), .completed(210)])
        let caught = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.asSingle().catch { _ in xs.asSingle() }.asObservable()
        }
        XCTAssertEqual(caught.events, [.next(1220, "5"), .completed(1220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(1200, 1210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(1210, 1220)])
    }

    func testRetryWhenResubscribesOnTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start {
            xs.asSingle().retry { (errors: Observable<Error>) in errors.take(2) }.asObservable()
        }
        // The trigger's second element resubscribes at once (which drops the trigger's
        // subscriber), so its completion right after is seen only at the next error (RxSwift).
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
    }

    func testSubscribeWithObjectPassesItWhileAlive() {
        final class Owner { var log: [String] = [] }
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        let subscription = subject.asSingle().subscribe(with: owner!, onSuccess: { $0.log.append("success \($1)") }, onFailure: { owner, _ in owner.log.append("failure") }, onDisposed: { $0.log.append("disposed") })
        subject.onNext(3)
        subject.onCompleted()
        XCTAssertEqual(owner?.log, ["success 3", "disposed"])
        weak let gone = owner
        owner = nil
        XCTAssertNil(gone)
        subscription.dispose()
    }
}
