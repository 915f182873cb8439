import RxSwift
import RxTest
import XCTest

/// The older overloads RxSwift 6 keeps deprecated (times in seconds, index variants,
/// `Variable`, the traits' RxSwift 5 names) forward to the current operators. Each test is
/// marked deprecated so that using them does not warn.
final class DeprecatedOverloadTests: RxTestCase {
    /// Runs `make` on a fresh scheduler against the hot source `1@210, 2@230, completed@300`.
    private func run<Result>(subscribed: TestTime = 200, disposed: TestTime = 1000, _ make: @escaping (Observable<Int>, TestScheduler) -> Observable<Result>) -> [Recorded<Event<Result>>] {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        return scheduler.start(created: 100, subscribed: subscribed, disposed: disposed) { make(xs.asObservable(), scheduler) }.events
    }

    /// Runs `make` on a fresh scheduler against a cold source: `value` after 10 ticks, or
    /// `testError` after 10 ticks when `value` is `nil`.
    private func runTrait<Result>(_ value: Int?, _ make: @escaping (Observable<Int>, TestScheduler) -> Observable<Result>) -> [Recorded<Event<Result>>] {
        let scheduler = TestScheduler(initialClock: 0)
        let events: [Recorded<Event<Int>>] = value.map { [.next(10, $0), .completed(10)] } ?? [.error(10, testError)]
        let xs = scheduler.createColdObservable(events)
        return scheduler.start { make(xs.asObservable(), scheduler) }.events
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testReplaySubjectCreateUnboundIsCreateUnbounded() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = ReplaySubject<Int>.createUnbound()
        scheduler.scheduleAt(210) { (1...40).forEach(subject.onNext) }
        let res = scheduler.start(created: 100, subscribed: 300, disposed: 1000) { subject.map { $0 * 2 } }
        XCTAssertEqual(res.events, (1...40).map { .next(300, $0 * 2) })
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testTimeIntervalOverloadsOfObservable() {
        XCTAssertEqual(run { xs, s in xs.delay(15, scheduler: s) }, [.next(225, 1), .next(245, 2), .completed(315)])
        XCTAssertEqual(run { xs, s in xs.skip(20.0, scheduler: s) }, [.next(230, 2), .completed(300)])
        XCTAssertEqual(run { xs, s in xs.take(20, scheduler: s) }, [.next(210, 1), .completed(220)])
        XCTAssertEqual(run { xs, s in xs.timeout(15, scheduler: s) }, [.next(210, 1), .error(225, RxError.timeout)])
        XCTAssertEqual(run { xs, s in xs.timeout(15, other: Observable.just(7), scheduler: s) }, [.next(210, 1), .next(225, 7), .completed(225)])
        XCTAssertEqual(run(subscribed: 205) { xs, s in xs.delaySubscription(20, scheduler: s) }, [.next(230, 2), .completed(300)])
        XCTAssertEqual(run { xs, s in xs.buffer(timeSpan: 1000, count: 2, scheduler: s) }, [.next(230, [1, 2]), .next(300, []), .completed(300)])
        XCTAssertEqual(run { xs, s in xs.window(timeSpan: 1000, count: 5, scheduler: s).flatMap { $0 } }, [.next(210, 1), .next(230, 2), .completed(300)])
        XCTAssertEqual(run(disposed: 235) { _, s in Observable<Int>.interval(10, scheduler: s) }, [.next(210, 0), .next(220, 1), .next(230, 2)])
        XCTAssertEqual(run(disposed: 235) { _, s in Observable<Int>.timer(5, period: 10, scheduler: s) }, [.next(205, 0), .next(215, 1), .next(225, 2)])
        XCTAssertEqual(run { xs, s in xs.throttle(100, scheduler: s).take(1) }, [.next(210, 1), .completed(210)])
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testIndexVariantsAndOptional() {
        XCTAssertEqual(run { xs, _ in xs.mapWithIndex { $0 * 10 + $1 } }, [.next(210, 10), .next(230, 21), .completed(300)])
        XCTAssertEqual(run { xs, _ in xs.flatMapWithIndex { Observable.just($0 + 10 * $1) } }, [.next(210, 1), .next(230, 12), .completed(300)])
        XCTAssertEqual(run { xs, _ in xs.skipWhileWithIndex { _, index in index < 1 } }, [.next(230, 2), .completed(300)])
        XCTAssertEqual(run { xs, _ in xs.takeWhileWithIndex { _, index in index < 1 } }, [.next(210, 1), .completed(230)])
        XCTAssertEqual(run { _, _ in Observable.from(Optional(3)) }, [.next(200, 3), .completed(200)])
        XCTAssertEqual(run { _, s in Observable.from(Int?.none, scheduler: s) }, [.completed(201)])
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testShareReplayAliases() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let shared = ys.shareReplay(1)
        let sharedWhileConnected = ys.shareReplayLatestWhileConnected()
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let lateWhileConnected = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(205) {
            subscriptions.append(shared.subscribe(first))
            subscriptions.append(sharedWhileConnected.subscribe(first))
        }
        scheduler.scheduleAt(225) {
            subscriptions.append(shared.subscribe(late))
            subscriptions.append(sharedWhileConnected.subscribe(lateWhileConnected))
        }
        scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(210, 1), .next(220, 2), .next(220, 2), .next(230, 3), .next(230, 3)])
        XCTAssertEqual(late.events, [.next(225, 2), .next(230, 3)])
        XCTAssertEqual(lateWhileConnected.events, [.next(225, 2), .next(230, 3)])
        XCTAssertEqual(ys.subscriptions, [Subscription(205, 300), Subscription(205, 300)])
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testVariableHoldsAndSendsValuesAndCompletesOnDeinit() {
        var variable: Variable<Int>? = Variable(1)
        var received: [String] = []
        let subscription = variable!.asObservable().subscribe(onNext: { received.append("\($0)") }, onCompleted: { received.append("completed") })
        variable!.value = 2
        variable!.value = 2
        XCTAssertEqual(variable!.value, 2)
        variable = nil
        XCTAssertEqual(received, ["1", "2", "2", "completed"])
        subscription.dispose()
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testTraitRxSwift5Names() {
        XCTAssertEqual(runTrait(1) { xs, s in xs.asSingle().observeOn(s).asObservable() }, [.next(211, 1), .completed(212)])
        XCTAssertEqual(runTrait(1) { xs, s in xs.asSingle().subscribeOn(s).asObservable() }, [.next(211, 1), .completed(211)])
        XCTAssertEqual(runTrait(nil) { xs, _ in xs.asSingle().catchError { _ in .just(2) }.asObservable() }, [.next(210, 2), .completed(210)])
        XCTAssertEqual(runTrait(nil) { xs, _ in xs.asSingle().catchErrorJustReturn(3).asObservable() }, [.next(210, 3), .completed(210)])
        XCTAssertEqual(runTrait(nil) { xs, _ in xs.asMaybe().catchErrorJustReturn(4).asObservable() }, [.next(210, 4), .completed(210)])
        XCTAssertEqual(runTrait(nil) { xs, _ in xs.asMaybe().retryWhen { (errors: Observable<Error>) in errors.take(2) }.asObservable() }, [.completed(230)])
        XCTAssertEqual(runTrait(nil) { xs, _ in xs.asMaybe().retryWhen { (errors: Observable<TestError>) in errors.take(2) }.asObservable() }, [.completed(230)])
        var seen: [Int] = []
        XCTAssertEqual(runTrait(1) { xs, _ in xs.asSingle().do(onNext: { seen.append($0) }).asObservable() }, [.next(210, 1), .completed(210)])
        XCTAssertEqual(seen, [1])
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testTraitTimeIntervalOverloads() {
        XCTAssertEqual(runTrait(1) { xs, s in xs.asSingle().delay(5, scheduler: s).asObservable() }, [.next(215, 1), .completed(216)])
        XCTAssertEqual(runTrait(1) { xs, s in xs.asSingle().delaySubscription(5, scheduler: s).asObservable() }, [.next(215, 1), .completed(215)])
        XCTAssertEqual(runTrait(1) { xs, s in xs.asSingle().timeout(5, scheduler: s).asObservable() }, [.error(205, RxError.timeout)])
        XCTAssertEqual(runTrait(1) { xs, s in xs.asSingle().timeout(5, other: .just(8), scheduler: s).asObservable() }, [.next(205, 8), .completed(205)])
        XCTAssertEqual(runTrait(1) { _, s in Single<Int>.timer(5, scheduler: s).asObservable() }, [.next(205, 0), .completed(205)])
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testCompletableMergeIsZip() {
        let scheduler = TestScheduler(initialClock: 0)
        let done = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let later = scheduler.createColdObservable([.completed(30)] as [Recorded<Event<Never>>])
        XCTAssertEqual(scheduler.start { Completable.merge(done.asCompletable(), later.asCompletable()).asObservable() }.events, [.completed(230)])
        XCTAssertEqual(scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { Completable.merge([later.asCompletable()]).asObservable() }.events, [.completed(1230)])
        XCTAssertEqual(scheduler.start(created: 2100, subscribed: 2200, disposed: 3000) { Completable.merge(AnyCollection([done.asCompletable()])).asObservable() }.events, [.completed(2210)])
        XCTAssertEqual(done.subscriptions, [Subscription(200, 210), Subscription(2200, 2210)])
        XCTAssertEqual(later.subscriptions, [Subscription(200, 230), Subscription(1200, 1230)])
    }

    @available(*, deprecated, message: "exercises deprecated overloads")
    func testCatchErrorOfSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.next(5, 1), .error(10, testError)])
        let res = scheduler.start { Observable.catchError([failing.asObservable(), .just(2)]) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(210, 2), .completed(210)])
    }
}
