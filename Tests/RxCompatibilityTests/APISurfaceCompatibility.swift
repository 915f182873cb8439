// Call sites of RxSwift 6.9's public API as app and test code writes them, compiled against
// our modules with only the imports changed. Each test also checks what the calls do, on
// virtual time where time matters; the base class checks `Resources.total` afterwards.
import Foundation
import RxSwift
import RxBlocking
import RxRelay
import RxTest
import XCTest

private struct LookupFailed: Error, Equatable {}

/// Looks results up for a query, the way a search screen's service does.
private final class SearchService {
    let scheduler: SchedulerType
    private(set) var lookups: [String] = []

    init(scheduler: SchedulerType) {
        self.scheduler = scheduler
    }

    func results(for query: String) -> Observable<[String]> {
        lookups.append(query)
        return Observable.just(["\(query)1", "\(query)2"]).delay(.seconds(5), scheduler: scheduler)
    }
}

final class APISurfaceCompatibilityTests: RxCompatibilityTestCase {
    func testSearchPipelineDebouncesDropsRepeatsAndKeepsTheLatestLookup() {
        let scheduler = TestScheduler(initialClock: 0)
        let service = SearchService(scheduler: scheduler)
        let query = scheduler.createHotObservable([
            .next(210, "r"), .next(215, "rx"), .next(240, "rx"), .next(260, "rxs"), .completed(400),
        ])
        let results = scheduler.start {
            query
                .debounce(.seconds(10), scheduler: scheduler)
                .distinctUntilChanged()
                .flatMapLatest { service.results(for: $0) }
        }
        XCTAssertEqual(results.events, [.next(230, ["rx1", "rx2"]), .next(275, ["rxs1", "rxs2"]), .completed(400)])
        XCTAssertEqual(query.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(service.lookups, ["rx", "rxs"])
    }

    func testReplaySubjectCreateUnboundedReplaysEverythingToLateSubscribers() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let history = ReplaySubject<String>.createUnbounded()
        let late = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(210) { history.onNext("a") }
        scheduler.scheduleAt(220) { history.onNext("b") }
        scheduler.scheduleAt(230) { history.subscribe(late).disposed(by: bag) }
        scheduler.scheduleAt(240) { history.onNext("c") }
        scheduler.scheduleAt(250) { history.onCompleted() }
        scheduler.start()
        XCTAssertEqual(late.events, [.next(230, "a"), .next(230, "b"), .next(240, "c"), .completed(250)])
        XCTAssertEqual(try history.toBlocking().toArray(), ["a", "b", "c"])
        XCTAssertEqual(try Observable.of(1, 2, 3).multicast(ReplaySubject.createUnbounded()).refCount().toBlocking().toArray(), [1, 2, 3])
    }

    func testRetryWhenBacksOffLongerAfterEachFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        var attempts = 0
        let flaky = Observable<String>.deferred {
            attempts += 1
            return attempts < 3 ? .error(LookupFailed()) : .just("ok")
        }
        let res = scheduler.start {
            flaky.retry { (errors: Observable<Error>) in
                errors.enumerated().flatMap { attempt, error -> Observable<Int> in
                    attempt < 5 ? Observable<Int>.timer(.seconds(10 * (attempt + 1)), scheduler: scheduler) : .error(error)
                }
            }
        }
        XCTAssertEqual(res.events, [.next(230, "ok"), .completed(230)])
        XCTAssertEqual(attempts, 3)
    }

    func testSkipWhileScanIntoAndInclusiveTakeUntil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(300),
        ])
        let res = scheduler.start {
            xs.skip(while: { $0 < 2 })
                .scan(into: [Int]()) { $0.append($1) }
                .take(until: { $0.count == 3 }, behavior: .inclusive)
        }
        XCTAssertEqual(res.events, [.next(220, [2]), .next(230, [2, 3]), .next(240, [2, 3, 4]), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testSampleWithDefaultValueAndWithLatestFrom() {
        func sources(_ scheduler: TestScheduler) -> (values: TestableObservable<Int>, ticks: TestableObservable<Void>) {
            (scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(400)]),
             scheduler.createHotObservable([.next(220, ()), .next(230, ()), .next(260, ()), .completed(500)]))
        }
        let sampling = TestScheduler(initialClock: 0)
        let (values, ticks) = sources(sampling)
        let sampled = sampling.start(disposed: 300) { values.sample(ticks, defaultValue: 0) }
        XCTAssertEqual(sampled.events, [.next(220, 1), .next(230, 0), .next(260, 2)])
        XCTAssertEqual(values.subscriptions, [Subscription(200, 300)])

        let combining = TestScheduler(initialClock: 0)
        let (others, triggers) = sources(combining)
        let latest = combining.start(disposed: 300) { triggers.withLatestFrom(others) { _, value in value * 10 } }
        XCTAssertEqual(latest.events, [.next(220, 10), .next(230, 10), .next(260, 20)])
        XCTAssertEqual(others.subscriptions, [Subscription(200, 300)])
    }

    func testGroupByReduceWithMapResultAndToArrayAsSingle() {
        let scheduler = TestScheduler(initialClock: 0)
        let totals: Single<[String]> = Observable.from([1, 2, 3, 4, 5, 6])
            .groupBy { $0 % 2 == 0 ? "even" : "odd" }
            .flatMap { group in group.reduce(0, accumulator: +, mapResult: { "\(group.key)=\($0)" }) }
            .toArray()
            .map { $0.sorted() }
        let res = scheduler.start { totals }
        XCTAssertEqual(res.events, [.next(200, ["even=12", "odd=9"]), .completed(200)])
    }

    func testOptionalSourcesIfEmptyAndFirst() throws {
        XCTAssertEqual(try Observable<Int>.from(optional: nil).ifEmpty(default: 42).toBlocking().toArray(), [42])
        XCTAssertEqual(try Observable.from(optional: 7).ifEmpty(switchTo: .just(1)).toBlocking().toArray(), [7])
        let firstOfEmpty: Int? = try Observable<Int>.empty().first().toBlocking().single()
        XCTAssertNil(firstOfEmpty)
        XCTAssertEqual(try Observable.of(5, 6).first().toBlocking().single(), 5)
        let events = try Observable<Int>.error(LookupFailed()).materialize().toBlocking().toArray()
        XCTAssertEqual(events.count, 1)
        XCTAssertNotNil(events.first?.error as? LookupFailed)
        XCTAssertEqual(try Observable.of(1, 2).materialize().dematerialize().toBlocking().toArray(), [1, 2])
    }

    func testTimeoutSwitchesToTheFallback() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([.next(50, "late")])
        let res = scheduler.start { slow.timeout(.seconds(20), other: Observable.just("cached"), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, "cached"), .completed(220)])
        XCTAssertEqual(slow.subscriptions, [Subscription(200, 220)])
    }

    func testBufferByTimeOrCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(280, 4), .completed(290)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(50), count: 2, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .next(270, [3]), .next(290, [4]), .completed(290)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 290)])
    }

    func testGenerateConcatMapCompactMapStartWithEnumerated() throws {
        let labels = Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 })
            .concatMap { Observable.of($0, -$0) }
            .compactMap { $0 > 0 ? "\($0)" : nil }
            .startWith("0")
            .enumerated()
            .map { "\($0.index):\($0.element)" }
        XCTAssertEqual(try labels.toBlocking().toArray(), ["0:0", "1:1", "2:3", "3:9"])
    }

    func testSubscribeWithAndBindWithSkipAReleasedObject() {
        final class Screen {
            var titles: [String] = []
            var finished = false
        }
        let titles = PublishSubject<String>()
        var screen: Screen? = Screen()
        let bag = DisposeBag()
        titles.subscribe(with: screen!, onNext: { screen, title in screen.titles.append(title) }, onCompleted: { screen in screen.finished = true })
            .disposed(by: bag)
        titles.bind(with: screen!) { screen, title in screen.titles.append(title.uppercased()) }
            .disposed(by: bag)
        titles.onNext("home")
        XCTAssertEqual(screen?.titles, ["home", "HOME"])
        weak let released = screen
        screen = nil
        titles.onNext("gone")
        titles.onCompleted()
        XCTAssertNil(released)
    }

    func testOwningDisposablesShareTheDisposeBaseClass() {
        let inner = BooleanDisposable()
        let serial = SerialDisposable()
        serial.disposable = inner
        let owners: [DisposeBase] = [DisposeBag(), CompositeDisposable(), serial, SingleAssignmentDisposable(), RefCountDisposable(disposable: Disposables.create())]
        for case let cancelable as Cancelable in owners {
            cancelable.dispose()
        }
        XCTAssertTrue(inner.isDisposed)
        XCTAssertTrue(serial.isDisposed)
        XCTAssertEqual(owners.filter { $0 is Cancelable }.count, 4)
    }

    func testHotObservableCreatedInlineSendsItsEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)]).map { $0 + $0 }
        }
        XCTAssertEqual(res.events, [.next(210, "aa"), .next(220, "bb"), .completed(230)])
    }
}
