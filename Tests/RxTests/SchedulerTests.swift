import Foundation
import RxSwift
import RxBlocking
import RxTest
import XCTest

final class SchedulerTests: RxTestCase {
    func testCurrentThreadSchedulerRunsNowAndQueuesNestedWork() {
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        var order: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            order.append("outer start")
            XCTAssertFalse(CurrentThreadScheduler.isScheduleRequired)
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                order.append("nested 1")
                return Disposables.create()
            }
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                order.append("nested 2")
                return Disposables.create()
            }
            order.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(order, ["outer start", "outer end", "nested 1", "nested 2"])
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    /// A source subscribed with no trampoline running (a session binding its outputs, an
    /// inner made in an event from the event loop) runs as the trampoline: the work its
    /// subscription queues runs before the call returns, in order, and the trampoline ends.
    func testASubscriptionOutsideATrampolineRunsTheWorkItQueuedAndEndsIt() {
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        var received: [Int] = []
        let subscription = Observable.from([1, 2, 3]).concat(Observable.from([4, 5])).map { $0 }
            .subscribeObject(anyObserver: AnyObserver { event in
                if case .next(let value) = event { received.append(value) }
            })
        XCTAssertEqual(received, [1, 2, 3, 4, 5])
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired, "the trampoline ended")
        subscription?.dispose()

        let taps = PublishSubject<Int>()
        var inners: [Int] = []
        let chain = taps.flatMapLatest { tap in Observable.combineLatest(Observable.from([tap, tap + 1]), Observable.just(100), resultSelector: +) }
            .subscribe(onNext: { inners.append($0) })
        taps.onNext(10)
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        taps.onNext(20)
        XCTAssertEqual(inners, [110, 111, 120, 121])
        chain.dispose()
    }

    func testCurrentThreadSchedulerDisposedQueuedWorkDoesNotRun() {
        var ran = false
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            let queued = CurrentThreadScheduler.instance.schedule(()) { _ in
                ran = true
                return Disposables.create()
            }
            queued.dispose()
            return Disposables.create()
        }
        XCTAssertFalse(ran)
    }

    func testSerialDispatchQueueSchedulerRunsInOrderOffThread() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "serial-test")
        let done = expectation(description: "all ran")
        let recorder = OrderRecorder()
        for index in 0..<100 {
            _ = scheduler.schedule(index) { value in
                recorder.append(value)
                if value == 99 { done.fulfill() }
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(recorder.values, Array(0..<100))
    }

    func testSerialDispatchQueueSchedulerRelativeAndCancel() {
        let scheduler = SerialDispatchQueueScheduler(qos: .default)
        let fired = expectation(description: "relative fired")
        let recorder = OrderRecorder()
        let cancelled = scheduler.scheduleRelative(1, dueTime: .milliseconds(20)) { value in
            recorder.append(value)
            return Disposables.create()
        }
        cancelled.dispose()
        let start = Date()
        _ = scheduler.scheduleRelative(2, dueTime: .milliseconds(30)) { value in
            recorder.append(value)
            fired.fulfill()
            return Disposables.create()
        }
        wait(for: [fired], timeout: 5)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.025)
        Thread.sleep(forTimeInterval: 0.02)
        XCTAssertEqual(recorder.values, [2])
    }

    func testPeriodicSchedulingOnDispatchQueue() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let ticks = expectation(description: "three ticks")
        let recorder = OrderRecorder()
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(5)) { state in
            recorder.append(state)
            if state == 2 { ticks.fulfill() }
            return state + 1
        }
        wait(for: [ticks], timeout: 5)
        periodic.dispose()
        XCTAssertEqual(Array(recorder.values.prefix(3)), [0, 1, 2])
    }

    func testOperationQueueScheduler() throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let values = try Observable.of(1, 2, 3, scheduler: scheduler).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [1, 2, 3])
    }

    func testTestSchedulerOrdersByTimeThenScheduleOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        var order: [String] = []
        scheduler.scheduleAt(20) { order.append("b@20") }
        scheduler.scheduleAt(10) { order.append("a@10") }
        scheduler.scheduleAt(20) { order.append("c@20") }
        scheduler.scheduleAt(15) {
            order.append("x@15")
            _ = scheduler.scheduleRelative((), dueTime: .seconds(0)) { _ in
                order.append("now+processing@\(scheduler.clock)")
                return Disposables.create()
            }
        }
        scheduler.start()
        XCTAssertEqual(order, ["a@10", "x@15", "now+processing@16", "b@20", "c@20"])
        XCTAssertEqual(scheduler.clock, 20)
    }

    func testTestSchedulerAdvanceToRunsOnlyDueWork() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran: [Int] = []
        scheduler.scheduleAt(10) { ran.append(10) }
        scheduler.scheduleAt(30) { ran.append(30) }
        scheduler.advanceTo(20)
        XCTAssertEqual(ran, [10])
        XCTAssertEqual(scheduler.clock, 20)
        scheduler.advanceTo(30)
        XCTAssertEqual(ran, [10, 30])
        scheduler.sleep(5)
        XCTAssertEqual(scheduler.clock, 35)
    }

    func testTestSchedulerStopHaltsStart() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran: [Int] = []
        scheduler.scheduleAt(10) { ran.append(10); scheduler.stop() }
        scheduler.scheduleAt(20) { ran.append(20) }
        scheduler.start()
        XCTAssertEqual(ran, [10])
        scheduler.start()
        XCTAssertEqual(ran, [10, 20])
    }

    func testTestSchedulerResolutionConvertsIntervals() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        var firedAt: Int?
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(250)) { _ in
            firedAt = scheduler.clock
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(firedAt, 250)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 0.25))
    }

    func testDefaultPeriodicOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        var ticks: [Int] = []
        let periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(5)) { state in
            ticks.append(scheduler.clock)
            return state + 1
        }
        scheduler.scheduleAt(31) { periodic.dispose() }
        scheduler.start()
        XCTAssertEqual(ticks, [10, 15, 20, 25, 30])
    }

    func testScheduleRecursiveOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [Int] = []
        _ = scheduler.scheduleRecursive(0, dueTime: .seconds(3)) { count, recurse in
            times.append(scheduler.clock)
            if count < 3 { recurse(count + 1, .seconds(3)) }
        }
        scheduler.start()
        XCTAssertEqual(times, [3, 6, 9, 12])
    }

    func testHistoricalSchedulerUsesDates() {
        let start = Date(timeIntervalSince1970: 1000)
        let scheduler = HistoricalScheduler(initialClock: start)
        var firedAt: Date?
        _ = scheduler.scheduleRelative((), dueTime: .seconds(60)) { _ in
            firedAt = scheduler.now
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(firedAt, start.addingTimeInterval(60))
    }

    func testMainSchedulerForwardsToInstalledHost() {
        let scheduler = TestScheduler(initialClock: 0)
        MainScheduler.setHost(scheduler)
        defer { MainScheduler.resetHost() }
        var firedAt: Int?
        _ = MainScheduler.instance.scheduleRelative((), dueTime: .seconds(5)) { _ in
            firedAt = scheduler.clock
            return Disposables.create()
        }
        XCTAssertEqual(MainScheduler.instance.now, Date(timeIntervalSince1970: 0))
        scheduler.start()
        XCTAssertEqual(firedAt, 5)
    }

    @available(*, deprecated, message: "exercises RxSwift's deprecated QOS initialisers")
    func testDeprecatedQOSInitialisersScheduleOnTheGlobalQueues() throws {
        let concurrent = ConcurrentDispatchQueueScheduler(globalConcurrentQueueQOS: .utility)
        let serial = SerialDispatchQueueScheduler(globalConcurrentQueueQOS: .background, internalSerialQueueName: "qos-serial")
        let values = try Observable.of(1, 2, 3)
            .observe(on: concurrent)
            .observe(on: serial)
            .map { ($0, Thread.isMainThread) }
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(values.map(\.0), [1, 2, 3])
        XCTAssertEqual(values.map(\.1), [false, false, false])
    }

    func testScheduledItemsAreCountedUntilDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let before = Resources.total
        do {
            let pending = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in Disposables.create() }
            XCTAssertEqual(Resources.total, before + 1)
            pending.dispose()
            scheduler.start()
        }
        XCTAssertEqual(Resources.total, before, "a disposed item is released once the scheduler drops it")
    }
}

/// Appends values from any thread.
final class OrderRecorder: @unchecked Sendable { // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: [Int] = []

    func append(_ value: Int) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    var values: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
