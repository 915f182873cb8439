import RxSwift
import RxBlocking
import RxTest
import XCTest

final class TestKitTests: RxTestCase {
    func testHotObservableRecordsEverySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(100, 1), .next(300, 2)])
        var first: Disposable?
        var second: Disposable?
        scheduler.scheduleAt(50) { first = xs.subscribe { _ in } }
        scheduler.scheduleAt(200) { first?.dispose() }
        scheduler.scheduleAt(250) { second = xs.subscribe { _ in } }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [Subscription(50, 200), Subscription(250)])
        // A subscription to an endless sequence lives (and is counted) until disposed.
        second?.dispose()
    }

    func testHotObservableCreatedInlineStillSendsItsEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        // Not stored anywhere: only the scheduler's queued events keep it alive, as in RxSwift.
        let res = scheduler.start {
            scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(230)]).map { $0 * 10 }
        }
        XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .completed(230)])
    }

    func testHotObservableWithEventsLeftQueuedIsReleasedWithItsScheduler() {
        weak var released: TestableObservable<Int>?
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2)])
            released = xs
            let observer = scheduler.createObserver(Int.self)
            let subscription = xs.subscribe(observer)
            scheduler.advanceTo(300)
            subscription.dispose()
            XCTAssertEqual(observer.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(0, 300)])
        }
        // The event at 500 never ran; tearDown checks its queued item was freed too.
        XCTAssertNil(released)
    }

    func testColdObservableStartsPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(first) }
        scheduler.scheduleAt(200) { _ = xs.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(110, "a"), .completed(120)])
        XCTAssertEqual(second.events, [.next(210, "a"), .completed(220)])
    }

    func testStartUsesDefaultTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        var createdAt: Int?
        let xs = scheduler.createHotObservable([.next(150, 0), .next(250, 1), .next(1050, 2)])
        let res = scheduler.start { () -> Observable<Int> in
            createdAt = scheduler.clock
            return xs.asObservable()
        }
        XCTAssertEqual(createdAt, 100)
        XCTAssertEqual(res.events, [.next(250, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testRecordedEquality() {
        XCTAssertEqual(Recorded.next(10, 1), Recorded(time: 10, value: Event.next(1)))
        XCTAssertNotEqual(Recorded.next(10, 1), Recorded.next(11, 1))
        XCTAssertNotEqual(Recorded<Event<Int>>.error(10, testError1), .error(10, testError2))
        XCTAssertEqual(Recorded<Event<Int>>.events(.next(1, 1), .completed(2)), [.next(1, 1), .completed(2)])
        XCTAssertEqual(Subscription(1), Subscription(1, Int.max))
        XCTAssertRecordedElements([.next(1, 5), .next(2, 6)], [5, 6])
    }

    /// As RxSwift's: a terminal event among the recorded ones fails the assertion.
    func testRecordedElementsRejectsTerminalEvents() {
        capturedFailures = []
        XCTAssertRecordedElements([.next(1, 5), .completed(3)], [5])
        XCTAssertRecordedElements([.next(1, 5), .next(2, 6)], [5, 7])
        let failures = capturedFailures ?? []
        capturedFailures = nil
        XCTAssertEqual(failures.count, 2)
        XCTAssertTrue(failures.first?.contains("stop event") ?? false, "\(failures)")
    }

    /// Failures recorded while not `nil` are kept here instead of failing the test.
    private var capturedFailures: [String]?

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturedFailures != nil {
            capturedFailures?.append(description)
            return
        }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    func testBlockingOperators() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().first(), 1)
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().last(), 3)
        XCTAssertEqual(try Observable.just(5).toBlocking().single(), 5)
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 }, 2)
        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single())
        XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single())
        XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
        XCTAssertThrowsError(try Observable<Int>.error(testError).toBlocking().toArray()) {
            XCTAssertEqual($0 as? TestError, testError)
        }
        switch Observable<Int>.create({ observer in
            observer.onNext(1)
            observer.onError(testError)
            return Disposables.create()
        }).toBlocking().materialize() {
        case .failed(let elements, let error):
            XCTAssertEqual(elements, [1])
            XCTAssertEqual(error as? TestError, testError)
        case .completed:
            XCTFail("expected failure")
        }
    }

    /// `single(_:)` throws `moreThanOneElement` as soon as the second match arrives and
    /// disposes its subscription then, without waiting for the sequence to end.
    func testBlockingSingleStopsAtTheSecondMatch() {
        let subject = PublishSubject<Int>()
        let box = UncheckedBox(subject)
        let feeding = DispatchQueue(label: "single-feeder")
        feeding.asyncAfter(deadline: .now() + 0.01) {
            for value in 1...3 { box.value.onNext(value * 2 - 1) } // odd: no match
            box.value.onNext(2)
            box.value.onNext(4)
        }
        var thrown: Error?
        do {
            _ = try subject.toBlocking(timeout: 10).single { $0.isMultiple(of: 2) }
        } catch {
            thrown = error
        }
        guard case RxError.moreThanOneElement? = thrown else { return XCTFail("\(String(describing: thrown))") }
        XCTAssertFalse(subject.hasObservers)

        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single { _ in throw testError2 }) {
            XCTAssertEqual($0 as? TestError, testError2)
        }
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 > 2 }, 3)
        XCTAssertThrowsError(try Observable.of(1, 2, 3).toBlocking().single { $0 > 5 }) {
            guard case RxError.noElements = $0 else { return XCTFail("\($0)") }
        }
    }

    @available(*, deprecated, message: "exercises RxTest's RxSwift 4 start spellings")
    func testDeprecatedStartSpellings() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .completed(10)])
        let first = scheduler.start(300) { xs.asObservable() }
        XCTAssertEqual(first.events, [.next(205, 1), .completed(210)])
        let second = scheduler.start(400, subscribed: 500, disposed: 600) { xs.asObservable() }
        XCTAssertEqual(second.events, [.next(505, 1), .completed(510)])
    }

    func testBlockingTimeout() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.05).first()) { error in
            guard case RxError.timeout = error else { return XCTFail("expected timeout, got \(error)") }
        }
    }

    func testBlockingFirstOfEndlessSequenceFromAnotherThread() throws {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "blocking-first")
        let source = Observable<Int>.create { observer in
            let work = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
                observer.onNext(state)
                return state + 1
            }
            return work
        }
        XCTAssertEqual(try source.toBlocking(timeout: 5).first(), 0)
    }
}
