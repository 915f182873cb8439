// Test code written the way RxSwift 6 projects write it, compiled against our modules with
// only the imports changed (`import RxSwift` -> `import Rx`). If RxSwift's RxTest or
// RxBlocking API changes shape here, this file stops compiling.
import Foundation
import RxSwift
import RxBlocking
import RxRelay
import RxTest
import XCTest

// MARK: - A project's test base class

/// The base class an RxSwift project keeps for its Rx tests: it loads the hooks before
/// counting resources, records subscription call stacks with its own capture, collects
/// unhandled errors, and checks that every test releases what it allocated.
class RxCompatibilityTestCase: XCTestCase {
    private var startResourceCount: Int32 = 0
    private var previousErrorHandler: Hooks.DefaultErrorHandler?
    private var previousCapture: Hooks.CustomCaptureSubscriptionCallstack?
    let unhandledErrors = UnhandledErrors()

    override func setUp() {
        super.setUp()
        // The lazily made hooks exist before the resources are counted, as in RxSwift.
        previousErrorHandler = Hooks.defaultErrorHandler
        previousCapture = Hooks.customCaptureSubscriptionCallstack
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = {
            ["RxCompatibilityTestCase subscription", "thread \(Thread.isMainThread ? "main" : "background")"]
        }
        let errors = unhandledErrors
        Hooks.defaultErrorHandler = { callStack, error in
            errors.record(callStack: callStack, error: error)
        }
        startResourceCount = Resources.total
    }

    override func tearDown() {
        // Work queued on the main thread may still need a run loop turn to finish, and a
        // Task may let its resources go a little after the test returns (later still on a
        // loaded machine): wait for the count to settle, up to 10 s.
        let deadline = Date().addingTimeInterval(10)
        while Resources.total != startResourceCount && Date() < deadline {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
        // Fewer than at the start is an earlier test's late release, not a leak of this one.
        XCTAssertLessThanOrEqual(Resources.total, startResourceCount, "Rx resources leaked by \(name)")
        Hooks.recordCallStackOnError = false
        if let previousErrorHandler { Hooks.defaultErrorHandler = previousErrorHandler }
        if let previousCapture { Hooks.customCaptureSubscriptionCallstack = previousCapture }
        super.tearDown()
    }
}

/// Unhandled errors with the call stacks recorded when their subscriptions were made.
final class UnhandledErrors: @unchecked Sendable { // `lock` guards `entries`
    private let lock = NSLock()
    private var entries: [(callStack: [String], error: String)] = []

    func record(callStack: [String], error: Error) {
        lock.lock()
        entries.append((callStack, "\(error)"))
        lock.unlock()
    }

    var all: [(callStack: [String], error: String)] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

// MARK: - A virtual time scheduler of the project's own

/// Virtual time in whole milliseconds, as a project writes its own converter against
/// RxSwift's `VirtualTimeConverterType` (intervals in `TimeInterval` seconds).
struct MillisecondsConverter: VirtualTimeConverterType {
    typealias VirtualTimeUnit = Int64
    typealias VirtualTimeIntervalUnit = Int64

    func convertFromVirtualTime(_ virtualTime: Int64) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) / 1000)
    }

    func convertToVirtualTime(_ time: RxTime) -> Int64 {
        Int64((time.timeIntervalSince1970 * 1000).rounded())
    }

    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int64) -> TimeInterval {
        TimeInterval(virtualTimeInterval) / 1000
    }

    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int64 {
        Int64((timeInterval * 1000).rounded())
    }

    func offsetVirtualTime(_ time: Int64, offset: Int64) -> Int64 {
        time + offset
    }

    func compareVirtualTime(_ lhs: Int64, _ rhs: Int64) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}

/// A virtual time scheduler counting milliseconds; work scheduled for now runs a
/// millisecond later, like `TestScheduler`'s processing delay.
final class MillisecondsScheduler: VirtualTimeScheduler<MillisecondsConverter> {
    init(initialClock: Int64 = 0) {
        super.init(initialClock: initialClock, converter: MillisecondsConverter())
    }

    override func adjustScheduledTime(_ time: Int64) -> Int64 {
        time <= clock ? clock + 1 : time
    }
}

// MARK: - Tests

final class RxTestCompatibilityTests: RxCompatibilityTestCase {
    func testCustomVirtualTimeSchedulerRunsTimedOperators() {
        let scheduler = MillisecondsScheduler()
        var ticks: [(time: Int64, value: Int)] = []
        let subscription = Observable<Int>.interval(.milliseconds(250), scheduler: scheduler)
            .take(3)
            .subscribe(onNext: { ticks.append((scheduler.clock, $0)) })
        scheduler.advanceTo(600)
        XCTAssertEqual(ticks.map(\.time), [250, 500])
        XCTAssertEqual(scheduler.clock, 600)
        scheduler.start()
        XCTAssertEqual(ticks.map(\.value), [0, 1, 2])
        XCTAssertEqual(ticks.map(\.time), [250, 500, 750])
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 0.75))
        scheduler.sleep(250)
        XCTAssertEqual(scheduler.clock, 1000)
        subscription.dispose()
    }

    func testStartOnASingleRecordsItsEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(30, "token"), .completed(30)])
        let observer = scheduler.start(created: 100, subscribed: 200, disposed: 1000) {
            source.asSingle().map { $0.uppercased() }
        }
        XCTAssertEqual(observer.events, [.next(230, "TOKEN"), .completed(230)])
        XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    }

    func testStartOverloadsOnTraits() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.start(disposed: 500) {
            Completable.error(CompatibilityError.offline)
        }
        XCTAssertEqual(failing.events, [.error(200, CompatibilityError.offline)])
        let empty = TestScheduler(initialClock: 0).start { Maybe<Int>.empty() }
        XCTAssertEqual(empty.events, Recorded.events(.completed(200)))
    }

    func testRecordedEventsBothFormsAndOptionalElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(Recorded.events(
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .completed(230)
        ))
        let optionalScheduler = TestScheduler(initialClock: 0)
        let optional = optionalScheduler.createHotObservable(Recorded.events([
            .next(210, Int?.none),
            .next(220, Int?.some(4)),
            .completed(230),
        ]))
        let results = scheduler.start { xs.map { $0 * 10 } }
        let optionalResults = optionalScheduler.start(created: 100, subscribed: 200, disposed: 1000) { optional.asObservable() }
        XCTAssertEqual(results.events, [.next(210, 20), .next(220, 30), .completed(230)])
        XCTAssertEqual(optionalResults.events, [.next(210, nil), .next(220, 4), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertRecordedElements(Array(results.events.dropLast()), [20, 30])
    }

    func testEventListsOfEveryKindCompare() {
        XCTAssertEqual([Event.next(1), .completed], [Event<Int>.next(1), .completed])
        XCTAssertEqual([SingleEvent<Int>.success(1), .failure(CompatibilityError.offline)],
                       [.success(1), .failure(CompatibilityError.offline)])
        XCTAssertEqual([MaybeEvent<Int>.success(1), .completed], [.success(1), .completed])
        XCTAssertEqual([CompletableEvent.completed, .error(CompatibilityError.offline)],
                       [.completed, .error(CompatibilityError.offline)])
        XCTAssertNotEqual(Event<Int>.error(CompatibilityError.offline), .error(CompatibilityError.timedOut))
    }

    func testTestableObserverAndScheduleAt() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1, simulateProcessingDelay: false)
        let relay = BehaviorRelay(value: "")
        let observer = scheduler.createObserver(String.self)
        var subscription: Disposable?
        scheduler.scheduleAt(100) { subscription = relay.asObservable().subscribe(observer) }
        scheduler.scheduleAt(110) { relay.accept("a") }
        scheduler.scheduleAt(120) { relay.accept("ab") }
        scheduler.scheduleAt(200) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(100, ""), .next(110, "a"), .next(120, "ab")])
        XCTAssertEqual(relay.value, "ab")
    }

    func testDebounceOnTestSchedulerWithResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let typing = scheduler.createHotObservable([
            .next(210, "r"), .next(300, "rx"), .next(900, "rxs"), .completed(1500),
        ])
        let results = scheduler.start(created: 0, subscribed: 200, disposed: 2000) {
            typing.debounce(.milliseconds(300), scheduler: scheduler)
        }
        XCTAssertEqual(results.events, [.next(600, "rx"), .next(1200, "rxs"), .completed(1500)])
    }

    func testUnhandledErrorsReachTheHookWithTheRecordedCallStack() {
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(onNext: { _ in })
        subject.onError(CompatibilityError.offline)
        subscription.dispose()
        let single = Single<Int>.error(CompatibilityError.timedOut).subscribe(onSuccess: { _ in })
        single.dispose()
        let recorded = unhandledErrors.all
        XCTAssertEqual(recorded.map(\.error), ["offline", "timedOut"])
        XCTAssertEqual(recorded.first?.callStack, ["RxCompatibilityTestCase subscription", "thread main"])

        Hooks.recordCallStackOnError = false
        _ = Observable<Int>.error(CompatibilityError.offline).subscribe()
        XCTAssertEqual(unhandledErrors.all.last?.callStack, [], "nothing is captured while recording is off")
    }

    func testBlockingOperators() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking(timeout: 1).first(), 1)
        XCTAssertEqual(try Observable<Int>.empty().toBlocking().last(), nil)
        // A second match ends the wait at once, even on a sequence that never ends.
        let endless = Observable.of(1, 2, 3, 4).concat(Observable<Int>.never())
        XCTAssertThrowsError(try endless.toBlocking().single { $0.isMultiple(of: 2) }) { error in
            guard case RxError.moreThanOneElement = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try endless.toBlocking(timeout: 5).first(), 1)
        switch Observable<Int>.never().toBlocking(timeout: 0.05).materialize() {
        case .failed(let elements, let error):
            XCTAssertEqual(elements, [])
            guard case RxError.timeout = error else { return XCTFail("\(error)") }
        case .completed:
            XCTFail("a sequence that never ends times out")
        }
    }
}

enum CompatibilityError: Error {
    case offline
    case timedOut
}
