@testable import EventLoop
import Foundation
import Synchronization
import XCTest

final class EventLoopTests: XCTestCase {
    func testExecuteRunsWorkFromOtherThreadsInOrderOnTheLoopThread() throws {
        let runner = try LoopThread()
        let seen = Locked<[Int]>([])
        let onLoop = Locked(true)
        let loop = runner.loop
        for i in 0..<100 {
            loop.execute {
                seen.withLock { $0.append(i) }
                if !loop.inEventLoop { onLoop.withLock { $0 = false } }
            }
        }
        XCTAssertTrue(try runner.sync { loop.inEventLoop })
        XCTAssertFalse(loop.inEventLoop)
        XCTAssertEqual(seen.withLock { $0 }, Array(0..<100))
        XCTAssertTrue(onLoop.withLock { $0 })
        XCTAssertTrue(runner.stop())
    }

    func testRunReturnsAfterStopAndHandlesReturnToZero() throws {
        let before = LiveCounts.handles
        let runner = try LoopThread()
        let loop = runner.loop
        XCTAssertEqual(try runner.sync { loop.handleCount }, 1, "only the wake-up handle")
        // A timer left armed is closed by stop().
        _ = try runner.sync { _ = try loop.scheduleTimer(after: .seconds(60)) {}; return loop.handleCount }
        XCTAssertEqual(LiveCounts.handles, before + 2)
        XCTAssertTrue(runner.stop())
        XCTAssertEqual(loop.handleCount, 0)
        XCTAssertEqual(LiveCounts.handles, before)
    }

    func testOneShotTimerFiresOnceAndClosesItself() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let fired = Locked(0)
        let start = Date()
        try runner.sync { try loop.scheduleTimer(after: .milliseconds(50)) { fired.withLock { $0 += 1 } }; return () }
        XCTAssertTrue(eventually { fired.withLock { $0 } == 1 })
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.045)
        XCTAssertTrue(eventually { (try? runner.sync { loop.handleCount }) == 1 })
        usleep(100_000)
        XCTAssertEqual(fired.withLock { $0 }, 1)
        XCTAssertTrue(runner.stop())
    }

    func testRepeatingTimerFiresUntilCancelled() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let fired = Locked(0)
        let timer = LoopConfined<TimerHandle?>(nil)
        try runner.sync {
            timer.value = try loop.scheduleTimer(after: .milliseconds(10), repeating: .milliseconds(10)) {
                let count = fired.withLock { $0 += 1; return $0 }
                if count == 5 { timer.value?.cancel() }
            }
        }
        XCTAssertTrue(eventually { fired.withLock { $0 } >= 5 })
        usleep(100_000)
        XCTAssertEqual(fired.withLock { $0 }, 5)
        XCTAssertEqual(try runner.sync { loop.handleCount }, 1)
        XCTAssertTrue(runner.stop())
    }

    func testStoppedTimerCanBeRestarted() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let fired = Locked<[String]>([])
        let timer = LoopConfined<TimerHandle?>(nil)
        try runner.sync {
            let t = try TimerHandle(loop: loop)
            timer.value = t
            t.start(after: .milliseconds(30)) { fired.withLock { $0.append("first") } }
            t.stop()
            t.start(after: .milliseconds(10)) { fired.withLock { $0.append("second") } }
        }
        XCTAssertTrue(eventually { fired.withLock { $0 } == ["second"] })
        usleep(60_000)
        XCTAssertEqual(fired.withLock { $0 }, ["second"])
        try runner.sync { timer.value?.close() }
        XCTAssertTrue(runner.stop())
    }

    func testSignalHandleRunsBodyOnLoopThread() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let got = Locked(false)
        try runner.sync { try loop.onSignal(SIGUSR2) { got.withLock { $0 = loop.inEventLoop } }; return () }
        kill(getpid(), SIGUSR2)
        XCTAssertTrue(eventually { got.withLock { $0 } })
        XCTAssertTrue(runner.stop())
    }

    func testDurationMillisecondsRoundsUp() {
        XCTAssertEqual(Duration.milliseconds(0).milliseconds, 0)
        XCTAssertEqual(Duration.microseconds(1).milliseconds, 1)
        XCTAssertEqual(Duration.seconds(2).milliseconds, 2000)
        XCTAssertEqual(Duration.seconds(Int64.max).milliseconds, .max, "saturates instead of trapping")
        XCTAssertEqual(Duration.seconds(-5).milliseconds, 0)
    }
}
