import RxSwift
import RxCocoa
import RxRelay
import RxTest
import XCTest

/// Driver on virtual time: `SharingScheduler.mock` makes the test scheduler the driver's
/// scheduler, so moving events to it (`observe(on:)`) takes one tick.
final class DriverTests: RxCocoaTestCase {
    func testAsDriverOnErrorJustReturnMovesEventsToTheSchedulerAndReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1).asObservable() }
            XCTAssertEqual(res.events, [.next(211, 1), .next(221, 2), .next(231, -1), .completed(231)])
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testAsDriverOnErrorDriveWithAndRecover() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asDriver(onErrorDriveWith: Driver.just(7)).asObservable() }
            XCTAssertEqual(res.events, [.next(211, 1), .next(222, 7), .completed(222)])
        }
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(220, testError)])
        var errors = 0
        SharingScheduler.mock(scheduler: other) {
            let res = other.start {
                ys.asDriver(onErrorRecover: { _ in
                    errors += 1
                    return Driver.of(8, 9)
                }).asObservable()
            }
            XCTAssertEqual(res.events, [.next(211, 1), .next(222, 8), .next(223, 9), .completed(224)])
        }
        XCTAssertEqual(errors, 1)
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testDriverSharesOneSubscriptionAndReplaysTheLatestElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(40, 3)])
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: 0)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(driver.drive(first)) }
            scheduler.scheduleAt(225) { subscriptions.append(driver.drive(second)) }
            scheduler.scheduleAt(250) { subscriptions[0].dispose() }
            scheduler.scheduleAt(260) { subscriptions[1].dispose() }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2), .next(241, 3)])
            XCTAssertEqual(second.events, [.next(225, 2), .next(241, 3)])
        }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)], "one subscription to the source, ended with the last subscriber")
    }

    func testCreationOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertEqual(scheduler.start { Driver.just(1).asObservable() }.events, [.next(201, 1), .completed(201)])
        }
        let other = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: other) {
            XCTAssertEqual(other.start { Driver.of(1, 2).asObservable() }.events, [.next(201, 1), .next(202, 2), .completed(203)])
        }
        let third = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: third) {
            XCTAssertEqual(third.start { Driver<Int>.empty().asObservable() }.events, [.completed(201)])
        }
        let fourth = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: fourth) {
            XCTAssertEqual(fourth.start(disposed: 450) { Driver<Int>.interval(.seconds(100)).asObservable() }.events, [.next(300, 0), .next(400, 1)])
        }
    }

    func testOperatorsKeepDriverGuarantees() {
        let scheduler = TestScheduler(initialClock: 0)
        let text = scheduler.createHotObservable([.next(210, "a"), .next(220, "ab"), .next(230, "ab"), .next(240, "abc"), .completed(300)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                text.asDriver(onErrorJustReturn: "")
                    .map { $0.count }
                    .distinctUntilChanged()
                    .filter { $0 != 2 }
                    .scan(0, accumulator: +)
                    .startWith(-1)
                    .asObservable()
            }
            XCTAssertEqual(res.events, [.next(200, -1), .next(211, 1), .next(241, 4), .completed(301)])
        }
        XCTAssertEqual(text.subscriptions, [Subscription(200, 300)])
    }

    func testDebounceAndThrottleRunOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(260, 3), .completed(300)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { xs.asDriver(onErrorJustReturn: 0).debounce(.seconds(20)).asObservable() }
            XCTAssertEqual(res.events, [.next(236, 2), .next(281, 3), .completed(301)])
        }
        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .next(215, 2), .next(218, 3), .completed(300)])
        SharingScheduler.mock(scheduler: other) {
            let res = other.start { ys.asDriver(onErrorJustReturn: 0).throttle(.seconds(20), latest: false).asObservable() }
            XCTAssertEqual(res.events, [.next(211, 1), .completed(301)])
        }
    }

    func testFlatMapLatestAndWithLatestFrom() {
        let scheduler = TestScheduler(initialClock: 0)
        let taps = scheduler.createHotObservable([.next(220, ()), .next(250, ())])
        let query = scheduler.createHotObservable([.next(210, "rx"), .next(240, "rxswift")])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                taps.asSignal(onErrorJustReturn: ())
                    .withLatestFrom(query.asSignal(onErrorJustReturn: ""))
                    .asDriver(onErrorJustReturn: "")
                    .flatMapLatest { query in Driver.just(query.uppercased()) }
                    .asObservable()
            }
            // asSignal, asDriver and the inner Driver.just each take one tick on the scheduler.
            XCTAssertEqual(res.events, [.next(223, "RX"), .next(253, "RXSWIFT")])
        }
        XCTAssertEqual(taps.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(query.subscriptions, [Subscription(200, 1000)])
    }

    func testCombineLatestAndZipOfDrivers() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3)])
        let b = scheduler.createHotObservable([.next(220, 10)])
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start {
                Driver.combineLatest(a.asDriver(onErrorJustReturn: 0), b.asDriver(onErrorJustReturn: 0)).map { $0 + $1 }.asObservable()
            }
            XCTAssertEqual(res.events, [.next(221, 11), .next(231, 13)])
        }
        let other = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: other) {
            let res = other.start {
                Driver.zip(Driver.of(1, 2), Driver.of("a", "b"), Driver.just(true)) { "\($0)\($1)\($2)" }.asObservable()
            }
            XCTAssertEqual(res.events, [.next(201, "1atrue"), .completed(203)])
        }
    }

    func testDriveToRelaysObserversAndClosures() {
        final class Screen { var titles: [String] = [] }
        let screen = Screen()
        let behavior = BehaviorRelay(value: "")
        let optional = BehaviorRelay<String?>(value: nil)
        let replay = ReplayRelay<String>.createUnbound()
        let subject = PublishSubject<String>()
        var log: [String] = []
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = subject.asDriver(onErrorJustReturn: "error")
            let disposables = [
                driver.drive(behavior),
                driver.drive(optional),
                driver.drive(replay),
                driver.drive(with: screen, onNext: { $0.titles.append($1) }),
                driver.drive(onNext: { log.append($0) }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") }),
            ]
            scheduler.scheduleAt(10) { subject.onNext("a") }
            scheduler.scheduleAt(20) { subject.onError(testError) }
            scheduler.start()
            disposables.forEach { $0.dispose() }
        }
        XCTAssertEqual(behavior.value, "error")
        XCTAssertEqual(optional.value, "error")
        var replayed: [String] = []
        _ = replay.subscribe(onNext: { replayed.append($0) })
        XCTAssertEqual(replayed, ["a", "error"])
        XCTAssertEqual(screen.titles, ["a", "error"])
        XCTAssertEqual(log, ["a", "error", "completed", "disposed"])
    }

    func testRelayAndInfallibleAsDriver() {
        let relay = BehaviorRelay(value: 1)
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let observer = scheduler.createObserver(Int.self)
            let subscription = relay.asDriver().drive(observer)
            scheduler.scheduleAt(10) { relay.accept(2) }
            let publish = PublishRelay<Int>()
            let published = scheduler.createObserver(Int.self)
            let third = publish.asDriver().drive(published)
            scheduler.scheduleAt(20) { publish.accept(3) }
            let infallible = scheduler.createObserver(Int.self)
            let second = Infallible.just(5).asDriver().drive(infallible)
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(1, 1), .next(11, 2)], "the relay's values move to the driver's scheduler")
            XCTAssertEqual(infallible.events, [.next(1, 5), .completed(2)], "each event moved to the scheduler takes a tick")
            XCTAssertEqual(published.events, [.next(21, 3)])
            subscription.dispose()
            second.dispose()
            third.dispose()
        }
    }

    func testSharingSchedulerMockRestoresTheMainScheduler() throws {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertTrue(DriverSharingStrategy.scheduler as AnyObject === scheduler)
            XCTAssertTrue(SignalSharingStrategy.scheduler as AnyObject === scheduler)
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        struct Thrown: Error {}
        XCTAssertThrowsError(try SharingScheduler.mock(makeScheduler: { scheduler }) { throw Thrown() })
        XCTAssertTrue(DriverSharingStrategy.scheduler is MainScheduler, "restored after a throw")
    }

    /// Outside `mock`, each shared sequence gets a main scheduler of its own, as in RxSwift:
    /// a driver driving a relay from inside its own delivery reaches the relay's driver at
    /// once on the main thread, instead of queueing behind the first driver's work.
    func testDriversDrivingARelayDeliverInOrderAtOnceOnTheMainThread() {
        MainScheduler.resetHost()
        XCTAssertFalse(SharingScheduler.make() as AnyObject === SharingScheduler.make() as AnyObject)
        let recorder = TestScheduler(initialClock: 0)
        let observer = recorder.createObserver(String.self)
        let relay = BehaviorRelay(value: "initial")
        let bag = DisposeBag()
        relay.asDriver().drive(observer).disposed(by: bag)
        Observable.just("first").asDriver(onErrorJustReturn: "").drive(relay).disposed(by: bag)
        Driver.just("second").drive(relay).disposed(by: bag)
        XCTAssertEqual(observer.events, [.next(0, "initial"), .next(0, "first"), .next(0, "second")])
    }

    @MainActor
    func testDriverValuesIteratesOnTheMainActorAndCancellationDisposes() async {
        // The default scheduler's host is a serial dispatch queue: `values` waits for it.
        let subject = BehaviorSubject(value: 1)
        let driver = subject.asDriver(onErrorJustReturn: 0)
        var received: [Int] = []
        for await value in driver.values {
            received.append(value)
            if value == 1 {
                subject.onNext(2)
            } else {
                subject.onCompleted()
            }
        }
        XCTAssertEqual(received, [1, 2])

        let endless = PublishSubject<Int>()
        let task = Task { @MainActor in
            var count = 0
            for await _ in endless.asDriver(onErrorJustReturn: 0).values { count += 1 }
            return count
        }
        while !endless.hasObservers { await Task.yield() }
        task.cancel()
        _ = await task.value
        XCTAssertFalse(endless.hasObservers, "cancelling the task disposed the subscription")
    }
}
