import Dispatch
import Foundation
import RxSwift
import RxTest
import XCTest

/// `MainScheduler` without a host is the process's main thread, as RxSwift's: XCTest runs
/// these tests on it, and `runMainLoop(until:)` lets queued main-thread work run.
final class MainSchedulerTests: RxTestCase {
    override func setUp() {
        super.setUp()
        MainScheduler.resetHost()
    }

    /// On the main thread with nothing pending, `schedule` runs the action at once; work the
    /// action schedules meanwhile is queued behind it (RxSwift's `numberEnqueued` rule).
    func testInstanceRunsInlineOnTheMainThreadAndQueuesReentrantWork() {
        XCTAssertTrue(Thread.isMainThread)
        var order: [String] = []
        _ = MainScheduler.instance.schedule(()) { _ in
            order.append("outer")
            _ = MainScheduler.instance.schedule(()) { _ in
                order.append("nested")
                return Disposables.create()
            }
            order.append("outer ends")
            return Disposables.create()
        }
        order.append("returned")
        XCTAssertEqual(order, ["outer", "outer ends", "returned"])
        XCTAssertTrue(runMainLoop { order.count == 4 })
        XCTAssertEqual(order, ["outer", "outer ends", "returned", "nested"])
        // Once the queued work ran, the next call is inline again.
        var inline = false
        _ = MainScheduler.instance.schedule(()) { _ in
            inline = true
            return Disposables.create()
        }
        XCTAssertTrue(inline)
    }

    /// While work of `instance` is queued, a call on the main thread queues behind it, so the
    /// order of scheduling is kept.
    func testInstanceKeepsOrderBehindQueuedWork() {
        let fromBackground = DispatchSemaphore(value: 0)
        let order = OrderRecorder()
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                order.append(1)
                return Disposables.create()
            }
            fromBackground.signal()
        }
        XCTAssertEqual(fromBackground.wait(timeout: .now() + 10), .success)
        _ = MainScheduler.instance.schedule(()) { _ in
            order.append(2)
            return Disposables.create()
        }
        XCTAssertEqual(order.values, [], "both wait for the main queue")
        XCTAssertTrue(runMainLoop { order.values.count == 2 })
        XCTAssertEqual(order.values, [1, 2])
    }

    /// Each `MainScheduler()` counts only its own work, as RxSwift's: work one of them queued
    /// (here from inside its own inline action) does not make another queue as well.
    func testEachMainSchedulerCountsItsOwnPendingWork() {
        let first = MainScheduler()
        let second = MainScheduler()
        var order: [String] = []
        _ = first.schedule(()) { _ in
            order.append("first")
            _ = first.schedule(()) { _ in
                order.append("first again, queued")
                return Disposables.create()
            }
            _ = second.schedule(()) { _ in
                order.append("second, inline")
                return Disposables.create()
            }
            _ = MainScheduler.instance.schedule(()) { _ in
                order.append("instance, inline")
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(order, ["first", "second, inline", "instance, inline"])
        XCTAssertTrue(runMainLoop { order.count == 4 })
        XCTAssertEqual(order.last, "first again, queued")
    }

    /// From another thread, work is queued to the main thread.
    func testInstanceFromAnotherThreadRunsOnTheMainThread() {
        let ranOnMain = Flag()
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                ranOnMain.set(Thread.isMainThread)
                return Disposables.create()
            }
        }
        XCTAssertTrue(runMainLoop { ranOnMain.value != nil })
        XCTAssertEqual(ranOnMain.value, true)
    }

    /// `asyncInstance` always queues, even on the main thread with nothing pending; it is a
    /// `SerialDispatchQueueScheduler`, as in RxSwift.
    func testAsyncInstanceAlwaysQueues() {
        let scheduler: SerialDispatchQueueScheduler = MainScheduler.asyncInstance
        var ran = false
        let pending = scheduler.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertFalse(ran)
        XCTAssertTrue(runMainLoop { ran })
        pending.dispose()

        var cancelledRan = false
        scheduler.schedule(()) { _ in
            cancelledRan = true
            return Disposables.create()
        }.dispose()
        var after = false
        _ = scheduler.schedule(()) { _ in
            after = true
            return Disposables.create()
        }
        XCTAssertTrue(runMainLoop { after })
        XCTAssertFalse(cancelledRan, "disposed before it ran")
    }

    /// Timed work runs on the main thread after its delay.
    func testTimedWorkRunsOnTheMainThread() throws {
        let values = try Observable.of(1, 2, 3, scheduler: MainScheduler.instance).toBlocking(timeout: 5).toArray()
        XCTAssertEqual(values, [1, 2, 3])
        let delayed = try Observable.just(4).delay(.milliseconds(10), scheduler: MainScheduler.asyncInstance).toBlocking(timeout: 5).first()
        XCTAssertEqual(delayed, 4)
        var onMain = false
        let element = try Observable.just(5).observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .delay(.milliseconds(5), scheduler: MainScheduler.instance)
            .do(onNext: { _ in onMain = Thread.isMainThread })
            .toBlocking(timeout: 5).single()
        XCTAssertEqual(element, 5)
        XCTAssertTrue(onMain)
    }

    /// `ConcurrentMainScheduler` runs everything inline on the main thread, nested calls too.
    func testConcurrentMainSchedulerRunsInlineOnTheMainThread() {
        var order: [String] = []
        _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
            order.append("outer")
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                order.append("nested")
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(order, ["outer", "nested"])
    }

    /// The main-thread checks pass on the main thread, and anywhere with a host that has no
    /// thread (a `TestScheduler`).
    func testMainThreadChecksPassOnTheMainThread() {
        MainScheduler.ensureRunningOnMainThread()
        MainScheduler.ensureExecutingOnScheduler(errorMessage: "on main")
        let scheduler = TestScheduler(initialClock: 0)
        MainScheduler.setHost(scheduler)
        defer { MainScheduler.resetHost() }
        let checked = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            MainScheduler.ensureRunningOnMainThread()
            checked.signal()
        }
        XCTAssertEqual(checked.wait(timeout: .now() + 10), .success)
    }

    /// A host without a thread gets every piece of work, none runs inline.
    func testHostWithoutAThreadGetsAllTheWork() {
        let scheduler = TestScheduler(initialClock: 0)
        MainScheduler.setHost(scheduler)
        defer { MainScheduler.resetHost() }
        var ranAt: [Int] = []
        _ = MainScheduler.instance.schedule(()) { _ in
            ranAt.append(scheduler.clock)
            return Disposables.create()
        }
        XCTAssertEqual(ranAt, [])
        scheduler.start()
        XCTAssertEqual(ranAt, [1])
    }

    /// Runs the main run loop until `condition` holds, for at most ten seconds.
    private func runMainLoop(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline {
            _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        return condition()
    }
}

/// A result set on one thread and read on another.
private final class Flag: @unchecked Sendable { // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: Bool?

    func set(_ value: Bool) {
        lock.lock()
        stored = value
        lock.unlock()
    }

    var value: Bool? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
