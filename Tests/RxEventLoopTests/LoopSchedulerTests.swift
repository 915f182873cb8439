import EventLoop
import Foundation
import NetworkTestSupport
import RxEventLoop
import RxSwift
import XCTest

final class LoopSchedulerTests: XCTestCase {
    private var runner: LoopThread!
    private var resourcesAtStart: Int32 = 0

    override func setUpWithError() throws {
        resourcesAtStart = Resources.total
        runner = try LoopThread()
    }

    override func tearDown() {
        MainScheduler.resetHost()
        XCTAssertTrue(runner.stop())
        XCTAssertTrue(eventually { Resources.total == resourcesAtStart }, "Resources.total \(Resources.total) != \(resourcesAtStart)")
        runner = nil
    }

    func testScheduleFromAnotherThreadRunsOnTheLoop() {
        let loop = runner.loop
        let ranOnLoop = Locked<Bool?>(nil)
        _ = loop.scheduler.schedule(()) { _ in
            ranOnLoop.withLock { $0 = loop.inEventLoop }
            return Disposables.create()
        }
        XCTAssertTrue(eventually { ranOnLoop.withLock { $0 } == true })
    }

    func testScheduleRelativeWaitsForTheDelay() throws {
        let loop = runner.loop
        let firedAt = Locked<Date?>(nil)
        let start = Date()
        _ = loop.scheduler.scheduleRelative((), dueTime: .milliseconds(80)) { _ in
            firedAt.withLock { $0 = Date() }
            return Disposables.create()
        }
        XCTAssertTrue(eventually { firedAt.withLock { $0 } != nil })
        XCTAssertGreaterThanOrEqual(firedAt.withLock { $0 }!.timeIntervalSince(start), 0.075)
        XCTAssertTrue(eventually { (try? self.runner.sync { loop.scheduledTaskCount }) == 0 }, "the work left the timer queue")
        XCTAssertEqual(try runner.sync { loop.handleCount }, 1, "no timer handle of its own")
    }

    func testDisposingBeforeTheDueTimeCancelsTheTimer() throws {
        let loop = runner.loop
        let fired = Locked(false)
        let disposable = loop.scheduler.scheduleRelative((), dueTime: .milliseconds(100)) { _ in
            fired.withLock { $0 = true }
            return Disposables.create()
        }
        XCTAssertTrue(eventually { (try? self.runner.sync { loop.scheduledTaskCount }) == 1 }, "the work waits in the timer queue")
        disposable.dispose()
        XCTAssertTrue(eventually { (try? self.runner.sync { loop.scheduledTaskCount }) == 0 }, "the work left the queue")
        usleep(200_000)
        XCTAssertFalse(fired.withLock { $0 })
    }

    func testDisposingImmediateWorkBeforeItRunsDropsIt() throws {
        let loop = runner.loop
        let fired = Locked(false)
        try runner.sync {
            // On the loop thread the work cannot run before this turn ends.
            let disposable = loop.scheduler.schedule(()) { _ in
                fired.withLock { $0 = true }
                return Disposables.create()
            }
            disposable.dispose()
        }
        _ = try runner.sync { () }
        XCTAssertFalse(fired.withLock { $0 })
    }

    /// The disposable the work returned is kept until the scheduled work is disposed.
    func testDisposingWorkThatRanDisposesWhatItReturned() throws {
        let loop = runner.loop
        let returnedDisposed = Locked(false)
        let disposable = loop.scheduler.schedule(()) { _ in
            Disposables.create { returnedDisposed.withLock { $0 = true } }
        }
        _ = try runner.sync { () } // the work has run
        XCTAssertFalse(returnedDisposed.withLock { $0 })
        disposable.dispose()
        XCTAssertTrue(returnedDisposed.withLock { $0 })
    }

    /// Work that disposes its own scheduling while it runs: what it returns is disposed at once.
    func testWorkDisposedWhileRunningDisposesWhatItReturns() throws {
        let loop = runner.loop
        let returnedDisposed = Locked(false)
        let own = LoopOnlyDisposable()
        try runner.sync {
            // On the loop thread the work cannot run before this turn ends.
            let disposable = loop.scheduler.schedule(()) { _ in
                own.value?.dispose()
                return Disposables.create { returnedDisposed.withLock { $0 = true } }
            }
            own.value = disposable
        }
        XCTAssertTrue(eventually { returnedDisposed.withLock { $0 } })
    }

    func testPeriodicWorkRepeatsUntilDisposed() {
        let loop = runner.loop
        let ticks = Locked(0)
        let disposable = loop.scheduler.schedulePeriodic(0, startAfter: .milliseconds(10), period: .milliseconds(10)) { n in
            ticks.withLock { $0 += 1 }
            return n + 1
        }
        XCTAssertTrue(eventually { ticks.withLock { $0 } >= 3 })
        disposable.dispose()
        usleep(50_000)
        let after = ticks.withLock { $0 }
        usleep(100_000)
        XCTAssertEqual(ticks.withLock { $0 }, after)
    }

    func testMainSchedulerHostedOnTheLoopRunsDelayOnTheLoopThread() {
        let loop = runner.loop
        MainScheduler.setHost(loop.scheduler)
        let received = Locked<[Int]>([])
        let onLoop = Locked(true)
        let start = Date()
        let subscription = Observable.of(1, 2)
            .delay(.milliseconds(60), scheduler: MainScheduler.instance)
            .subscribe(onNext: { value in
                received.withLock { $0.append(value) }
                if !loop.inEventLoop { onLoop.withLock { $0 = false } }
            })
        XCTAssertTrue(eventually { received.withLock { $0 } == [1, 2] })
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.055)
        XCTAssertTrue(onLoop.withLock { $0 })
        subscription.dispose()
    }

    /// Hosted on a loop, `MainScheduler.instance` treats the loop thread as the main thread:
    /// inline there when nothing of it is pending, queued on the loop from other threads and
    /// for re-entrant calls; `asyncInstance` always queues.
    func testMainSchedulerHostedOnTheLoopRunsInlineOnTheLoopThread() throws {
        let loop = runner.loop
        MainScheduler.setHost(LoopScheduler.followingCurrentLoop(fallback: loop))
        let order = Locked<[String]>([])
        try runner.sync {
            _ = MainScheduler.instance.schedule(()) { _ in
                order.withLock { $0.append("inline") }
                _ = MainScheduler.instance.schedule(()) { _ in
                    order.withLock { $0.append(loop.inEventLoop ? "nested on loop" : "nested elsewhere") }
                    return Disposables.create()
                }
                return Disposables.create()
            }
            _ = MainScheduler.asyncInstance.schedule(()) { _ in
                order.withLock { $0.append(loop.inEventLoop ? "async on loop" : "async elsewhere") }
                return Disposables.create()
            }
            order.withLock { $0.append("returned") }
        }
        XCTAssertTrue(eventually { order.withLock { $0.count } == 4 })
        XCTAssertEqual(order.withLock { $0 }, ["inline", "returned", "nested on loop", "async on loop"])

        let fromOutside = Locked<Bool?>(nil)
        let disposable = MainScheduler.instance.schedule(()) { _ in
            fromOutside.withLock { $0 = loop.inEventLoop }
            return Disposables.create()
        }
        XCTAssertTrue(eventually { fromOutside.withLock { $0 } == true }, "from the test thread: queued on the loop")
        disposable.dispose()
        try runner.sync { MainScheduler.ensureRunningOnMainThread() }
    }

    func testFollowingCurrentLoopKeepsWorkOnTheCallingLoop() throws {
        let other = try LoopThread()
        defer { XCTAssertTrue(other.stop()) }
        let scheduler = LoopScheduler.followingCurrentLoop(fallback: runner.loop)
        let fallbackLoop = runner.loop
        let otherLoop = other.loop
        let fromOutside = Locked<Bool?>(nil)
        _ = scheduler.schedule(()) { _ in
            fromOutside.withLock { $0 = fallbackLoop.inEventLoop }
            return Disposables.create()
        }
        let fromOther = Locked<Bool?>(nil)
        try other.sync {
            _ = scheduler.scheduleRelative((), dueTime: .milliseconds(5)) { _ in
                fromOther.withLock { $0 = otherLoop.inEventLoop }
                return Disposables.create()
            }
        }
        XCTAssertTrue(eventually { fromOutside.withLock { $0 } == true }, "from a plain thread: the fallback loop")
        XCTAssertTrue(eventually { fromOther.withLock { $0 } == true }, "from a loop thread: that loop")
    }
}

final class LoopSchedulerStopTests: XCTestCase {
    func testWorkPendingWhenTheLoopStopsIsReleased() throws {
        let before = Resources.total
        let runner = try LoopThread()
        let fired = Locked(false)
        let scheduler = runner.loop.scheduler
        try runner.sync {
            _ = scheduler.scheduleRelative((), dueTime: .seconds(60)) { _ in
                fired.withLock { $0 = true }
                return Disposables.create()
            }
        }
        XCTAssertEqual(Resources.total, before + 1)
        XCTAssertTrue(runner.stop())
        XCTAssertEqual(Resources.total, before, "the unfired work no longer counts")
        XCTAssertFalse(fired.withLock { $0 })
    }
}

/// A disposable handed from the test to the work it scheduled.
// @unchecked Sendable: set and read only on the loop thread.
private final class LoopOnlyDisposable: @unchecked Sendable {
    var value: Disposable?
}
