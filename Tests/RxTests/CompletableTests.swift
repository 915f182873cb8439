import RxSwift
import RxTest
import XCTest

/// `Completable.concat`, `andThen` to every trait, `subscribe(with:)` and `asCompletable`.
final class CompletableTests: RxTestCase {
    private func completable(_ scheduler: TestScheduler, _ time: TestTime) -> TestableObservable<Never> {
        scheduler.createColdObservable([.completed(time)] as [Recorded<Event<Never>>])
    }

    func testConcatRunsOneAfterAnother() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = completable(scheduler, 10)
        let ys = completable(scheduler, 20)
        let variadic = scheduler.start { Completable.concat(xs.asCompletable(), ys.asCompletable()).asObservable() }
        XCTAssertEqual(variadic.events, [.completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])

        let instance = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asCompletable().concat(ys.asCompletable()).asObservable()
        }
        XCTAssertEqual(instance.events, [.completed(1230)])

        let sequence = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            Completable.concat(AnySequence([xs.asCompletable(), ys.asCompletable(), xs.asCompletable()])).asObservable()
        }
        XCTAssertEqual(sequence.events, [.completed(2240)])

        let collection = scheduler.start(created: 3100, subscribed: 3200, disposed: 4000) {
            Completable.concat([ys.asCompletable(), xs.asCompletable()]).asObservable()
        }
        XCTAssertEqual(collection.events, [.completed(3230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(1200, 1210), Subscription(2200, 2210), Subscription(2230, 2240), Subscription(3220, 3230)])
    }

    func testConcatStopsAtFirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Never>>])
        let ys = completable(scheduler, 20)
        let res = scheduler.start { Completable.concat([failing.asCompletable(), ys.asCompletable()]).asObservable() }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testAndThenToEveryTrait() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = completable(scheduler, 10)
        let value = scheduler.createColdObservable([.next(5, 1), .completed(5)])
        let many = scheduler.createColdObservable([.next(5, 1), .next(8, 2), .completed(9)])

        let single = scheduler.start { first.asCompletable().andThen(value.asSingle()).asObservable() }
        XCTAssertEqual(single.events, [.next(215, 1), .completed(215)])
        let maybe = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            first.asCompletable().andThen(value.asMaybe()).asObservable()
        }
        XCTAssertEqual(maybe.events, [.next(1215, 1), .completed(1215)])
        let completable = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            first.asCompletable().andThen(first.asCompletable()).asObservable()
        }
        XCTAssertEqual(completable.events, [.completed(2220)])
        let observable = scheduler.start(created: 3100, subscribed: 3200, disposed: 3217) {
            first.asCompletable().andThen(many.asObservable())
        }
        XCTAssertEqual(observable.events, [.next(3215, 1)])
        XCTAssertEqual(value.subscriptions, [Subscription(210, 215), Subscription(1210, 1215)])
        XCTAssertEqual(many.subscriptions, [Subscription(3210, 3217)])
    }

    func testAndThenSkipsSecondAfterErrorAndDisposesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Never>>])
        let never = scheduler.createColdObservable([] as [Recorded<Event<Never>>])
        let value = scheduler.createColdObservable([.next(5, 1), .completed(5)])
        let res = scheduler.start { failing.asCompletable().andThen(value.asSingle()).asObservable() }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(value.subscriptions, [])
        let disposed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1250) {
            never.asCompletable().andThen(value.asMaybe()).asObservable()
        }
        XCTAssertEqual(disposed.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(1200, 1250)])
    }

    func testSubscribeWithObjectAndAsCompletableOfNever() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        let subject = PublishSubject<Never>()
        _ = subject.asCompletable().subscribe(with: owner, onCompleted: { $0.log.append("completed") }, onError: { owner, _ in owner.log.append("error") }, onDisposed: { $0.log.append("disposed") })
        subject.onCompleted()
        _ = Completable.error(testError).subscribe(with: owner, onError: { owner, error in owner.log.append("error \(error)") })
        XCTAssertEqual(owner.log, ["completed", "disposed", "error TestError(1)"])
    }
}
