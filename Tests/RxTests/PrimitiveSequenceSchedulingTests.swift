import RxSwift
import RxTest
import XCTest

/// The time and scheduler operators every trait has: `delaySubscription`, `delay`,
/// `observe(on:)`, `subscribe(on:)`, `timeout`, `timer`, `just(_:scheduler:)`, and `using`.
final class PrimitiveSequenceSchedulingTests: RxTestCase {
    func testDelaySubscriptionShiftsTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().delaySubscription(.seconds(30), scheduler: scheduler).asObservable() }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)])
    }

    func testDelayShiftsTheResultButNotAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asMaybe().delay(.seconds(15), scheduler: scheduler).asObservable() }
        XCTAssertEqual(res.events, [.next(225, 1), .completed(226)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])

        let ys = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Never>>])
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            ys.asCompletable().delay(.seconds(15), scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(failed.events, [.error(1210, testError)])
    }

    func testObserveOnAndSubscribeOnUseTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        // The test scheduler runs scheduled work one tick later; observe(on:) schedules each event.
        let observed = scheduler.start { xs.asSingle().observe(on: scheduler).asObservable() }
        XCTAssertEqual(observed.events, [.next(211, 1), .completed(212)])

        let subscribed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            xs.asSingle().subscribe(on: scheduler).asObservable()
        }
        XCTAssertEqual(subscribed.events, [.next(1211, 1), .completed(1211)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(1201, 1211)])
    }

    func testTimeoutFailsOrSwitchesToOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(50, 1), .completed(50)])
        let other = scheduler.createColdObservable([.next(5, 9), .completed(5)])
        let failed = scheduler.start { slow.asSingle().timeout(.seconds(20), scheduler: scheduler).asObservable() }
        XCTAssertEqual(failed.events, [.error(220, RxError.timeout)])

        let switched = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            slow.asSingle().timeout(.seconds(20), other: other.asSingle(), scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(switched.events, [.next(1225, 9), .completed(1225)])
        XCTAssertEqual(slow.subscriptions, [Subscription(200, 220), Subscription(1200, 1220)])
        XCTAssertEqual(other.subscriptions, [Subscription(1220, 1225)])

        let inTime = scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) {
            slow.asMaybe().timeout(.seconds(60), scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(inTime.events, [.next(2250, 1), .completed(2250)])
    }

    func testTimerSendsZeroOnceAfterDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let single = scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler).asObservable() }
        XCTAssertEqual(single.events, [.next(230, 0), .completed(230)])
        let maybe = scheduler.start(created: 1100, subscribed: 1200, disposed: 1220) {
            Maybe<UInt8>.timer(.seconds(30), scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(maybe.events, [])
    }

    func testJustOnScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let single = scheduler.start { Single.just(4, scheduler: scheduler).asObservable() }
        XCTAssertEqual(single.events, [.next(201, 4), .completed(202)])
        let maybe = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Maybe.just("m", scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(maybe.events, [.next(1201, "m"), .completed(1202)])
    }

    private final class Resource: Disposable {
        private let onDispose: () -> Void
        init(onDispose: @escaping () -> Void) { self.onDispose = onDispose }
        func dispose() { onDispose() }
    }

    func testUsingDisposesTheResourceWithTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(20, 5), .completed(20)])
        var disposedAt: [TestTime] = []
        let res = scheduler.start {
            Single.using({ Resource { disposedAt.append(scheduler.clock) } }, primitiveSequenceFactory: { _ in xs.asSingle() })
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, 5), .completed(220)])
        XCTAssertEqual(disposedAt, [220])

        let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
            Maybe<Int>.using({ Resource { disposedAt.append(scheduler.clock) } }, primitiveSequenceFactory: { _ in throw testError })
                .asObservable()
        }
        XCTAssertEqual(thrown.events, [.error(1200, testError)])
        XCTAssertEqual(disposedAt, [220, 1200])
    }
}
