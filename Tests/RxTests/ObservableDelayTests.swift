import RxSwift
import RxBlocking
import RxTest
import XCTest

final class ObservableDelayTests: RxTestCase {
    func testDelayShiftsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(250, 2),
            .next(350, 3),
            .next(450, 4),
            .completed(550),
        ])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(350, 2),
            .next(450, 3),
            .next(550, 4),
            .completed(650),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testDelayKeepsOrderOfCloseElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(211, 2), .next(215, 3), .completed(216)])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(221, 2), .next(225, 3), .completed(226)])
    }

    /// An element that comes after the queue emptied starts a fresh drain, due its delay after
    /// it; the events that come while it waits keep their own arrival times.
    func testDelayStartsAFreshDrainAfterTheQueueEmptied() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2), .next(303, 3), .completed(304)])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(310, 2), .next(313, 3), .completed(314)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 304)])
    }

    /// The sink keeps the two oldest waiting events itself and the rest in an array: events
    /// that arrive while that array is drained, and after it emptied, keep their order and times.
    func testDelayKeepsOrderAcrossItsTwoSlotsAndItsArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(211, 2), .next(212, 3), .next(213, 4), .next(218, 5), .next(224, 6), .completed(235),
        ])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(220, 1), .next(221, 2), .next(222, 3), .next(223, 4), .next(228, 5), .next(234, 6), .completed(245),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    /// An error drops every waiting event, those in the array too; the next subscription starts empty.
    func testDelayErrorDropsEventsBeyondItsTwoSlots() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(211, 2), .next(212, 3), .next(213, 4), .error(215, testError)])
        let res = scheduler.start { xs.delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(215, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
    }

    /// RxSwift's drain rule: each drain sends one event and schedules the next for when it
    /// is due; an event already due (same arrival time) goes in the next drain, one tick later.
    func testDelaySendsOneEventPerDrain() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3).delay(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(206, 2), .next(207, 3), .completed(208)])
    }

    /// An error while elements wait is sent at once and drops them.
    func testDelayErrorDropsWaitingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .error(220, testError)])
        let res = scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDelayDoesNotDelayErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .error(260, testError)])
        let res = scheduler.start { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testDelayDisposedDropsPendingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let res = scheduler.start(disposed: 260) { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testDelayOnDispatchQueueDeliversLater() throws {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "delay-test")
        let start = Date()
        let values = try Observable.of(1, 2, 3).delay(.milliseconds(50), scheduler: scheduler).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.045)
    }

    /// On the real clock (a scheduler with a thread) a drain also sends the events already due
    /// when it has sent its first, and reschedules only for one still to come, for the rest of
    /// its delay.
    func testDelayOnTheRealClockSendsEventsAlreadyDueInTheSameDrain() throws {
        let host = ManualClockHost()
        let source = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = source.delay(.milliseconds(1), scheduler: host).subscribe { events.append($0) }
        defer { subscription.dispose() }
        source.onNext(1)
        host.now = host.at(0.000_1)
        source.onNext(2)
        host.now = host.at(0.000_3)
        source.onNext(3)
        host.now = host.at(0.000_4)
        source.onCompleted()
        XCTAssertEqual(host.pending.map(\.dueTime), [.milliseconds(1)])

        // 1 and 2 are due, 3 is due at 1.3 ms: 50 µs after the drain.
        host.now = host.at(0.001_25)
        host.runFirst()
        XCTAssertEqual(events.map(\.element), [1, 2])
        let rest = try XCTUnwrap(host.pending.first?.dueTime)
        guard case .nanoseconds(let nanoseconds) = rest else { return XCTFail("rescheduled for \(rest)") }
        XCTAssertEqual(Double(nanoseconds), 50_000, accuracy: 1)
        XCTAssertEqual(host.pending.count, 1)

        host.now = host.at(0.001_5)
        host.runFirst()
        XCTAssertEqual(events.map(\.element), [1, 2, 3, nil])
        XCTAssertTrue(events.last?.isCompleted ?? false)
        XCTAssertTrue(host.pending.isEmpty)
    }

    /// An observer that disposes the subscription on an element stops the drain: the events
    /// already due after it are not sent, and nothing is rescheduled.
    func testDelayOnTheRealClockStopsTheDrainWhenDisposedByAnElement() {
        let host = ManualClockHost()
        let source = PublishSubject<Int>()
        var elements: [Int] = []
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(source.delay(.milliseconds(1), scheduler: host).subscribe(onNext: { element in
            elements.append(element)
            subscription.dispose()
        }))
        source.onNext(1)
        source.onNext(2)
        source.onCompleted()
        host.now = host.at(0.002)
        host.runFirst()
        XCTAssertEqual(elements, [1])
        XCTAssertTrue(host.pending.isEmpty)
        XCTAssertFalse(source.hasObservers)
    }

    /// `MainScheduler` on a virtual time host keeps RxSwift's one event a drain, a tick apart.
    func testDelayOnTheMainSchedulerHostedOnVirtualTimeSendsOneEventPerDrain() {
        let scheduler = TestScheduler(initialClock: 0)
        MainScheduler.setHost(scheduler)
        defer { MainScheduler.resetHost() }
        let res = scheduler.start { Observable.of(1, 2, 3).delay(.seconds(5), scheduler: MainScheduler.instance) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(206, 2), .next(207, 3), .completed(208)])
    }
}

/// A scheduler with a thread (a `MainSchedulerHost`, so on the real clock as operators see
/// it) whose clock and timed work the test drives by hand.
// @unchecked Sendable: used on the test's thread alone.
private final class ManualClockHost: MainSchedulerHost, @unchecked Sendable {
    private let start = Date(timeIntervalSinceReferenceDate: 1_000)
    lazy var now: RxTime = start
    var isOnHostThread: Bool { true }
    /// Timed work not yet run, in the order it was scheduled.
    private(set) var pending: [(dueTime: RxTimeInterval, run: () -> Void)] = []

    /// `seconds` after the clock's start.
    func at(_ seconds: Double) -> RxTime { start.addingTimeInterval(seconds) }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        action(state)
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval,
                                     action: @escaping (StateType) -> Disposable) -> Disposable {
        let result = SingleAssignmentDisposable()
        pending.append((dueTime, {
            if !result.isDisposed { result.setDisposable(action(state)) }
        }))
        return result
    }

    /// Runs the oldest timed work.
    func runFirst() {
        pending.removeFirst().run()
    }
}
