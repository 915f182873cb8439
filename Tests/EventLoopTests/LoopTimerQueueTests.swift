import CLibUV
@testable import EventLoop
import Foundation
import NetworkTestSupport
import Synchronization
import XCTest

/// A task that records its tag when it fires or is dropped, and may run a follow-up when it fires.
// @unchecked Sendable: made and used on the loop thread (the recorder is a lock).
private final class TaggedTask: LoopTimerTask, @unchecked Sendable {
    let tag: Int
    let record: Locked<[String]>
    var onFire: (() -> Void)?

    init(_ tag: Int, record: Locked<[String]>) {
        self.tag = tag
        self.record = record
    }

    override func timerFired() {
        record.withLock { $0.append("fired \(tag)") }
        onFire?()
    }

    override func timerDropped() {
        record.withLock { $0.append("dropped \(tag)") }
    }
}

/// Records when it fires against when it was made: a fire before `delay` passed is early.
// @unchecked Sendable: made and fired on the loop thread (the records are locks).
private final class StopwatchTask: LoopTimerTask, @unchecked Sendable {
    let delay: Int64
    let scheduledAt = monotonicNanoseconds()
    let early: Locked<[String]>
    let fired: Locked<Int>

    init(delay: Int64, early: Locked<[String]>, fired: Locked<Int>) {
        self.delay = delay
        self.early = early
        self.fired = fired
    }

    override func timerFired() {
        let waited = Int64(monotonicNanoseconds() - scheduledAt)
        if waited < delay { early.withLock { $0.append("\(waited) ns of \(delay)") } }
        fired.withLock { $0 += 1 }
    }
}

private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// The loop's timed tasks (`EventLoop.schedule(_:afterNanoseconds:)`): one shared timer, each task run
/// once in due order (schedule order when due together), cancelled ones never, and the ones
/// waiting when the loop stops dropped.
final class LoopTimerQueueTests: XCTestCase {
    func testTasksFireOnceInDueOrderAndCancelledOnesNever() throws {
        let thread = try LoopThread()
        let record = Locked<[String]>([])
        let count = 24
        // Distinct due times 3 ms apart, scheduled in a scrambled order.
        let delays = (0..<count).map { 20 + 3 * (($0 * 5) % count) }
        let cancelled = Set(stride(from: 3, to: count, by: 4))
        let start = Date()
        try thread.sync {
            let tasks = (0..<count).map { TaggedTask($0, record: record) }
            for (tag, task) in tasks.enumerated() {
                XCTAssertTrue(thread.loop.schedule(task, afterNanoseconds: Int64(delays[tag]) * 1_000_000))
            }
            XCTAssertFalse(thread.loop.schedule(tasks[0], afterNanoseconds: 1_000_000), "a scheduled task is not scheduled twice")
            for tag in cancelled { thread.loop.cancel(tasks[tag]) }
            XCTAssertEqual(thread.loop.scheduledTaskCount, count - cancelled.count)
            XCTAssertEqual(thread.loop.handleCount, 1, "no handle per task: the wake-up handle only")
        }
        let expected = (0..<count).filter { !cancelled.contains($0) }.sorted { delays[$0] < delays[$1] }.map { "fired \($0)" }
        XCTAssertTrue(eventually { record.withLock { $0.count } == expected.count })
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), Double(delays.max()!) / 1000 - 0.005)
        usleep(80_000)  // nothing more comes: cancelled tasks never fire, none fires twice
        XCTAssertEqual(record.withLock { $0 }, expected)
        XCTAssertEqual(try thread.sync { thread.loop.scheduledTaskCount }, 0)
        XCTAssertTrue(thread.stop())
    }

    /// Tasks due at the same time run in the order they were scheduled; one scheduled with no
    /// delay from a firing task runs at once, before a later one.
    func testTasksDueTogetherRunInScheduleOrder() throws {
        let thread = try LoopThread()
        let record = Locked<[String]>([])
        try thread.sync {
            let tasks = (0..<6).map { TaggedTask($0, record: record) }
            let followUp = TaggedTask(9, record: record)
            let later = TaggedTask(7, record: record)
            tasks[1].onFire = { thread.loop.schedule(followUp, afterNanoseconds: 0) }
            for task in tasks { thread.loop.schedule(task, afterNanoseconds: 15_000_000) }
            thread.loop.schedule(later, afterNanoseconds: 40_000_000)
        }
        XCTAssertTrue(eventually { record.withLock { $0.count } == 8 })
        let fired = record.withLock { $0 }
        // The six are due in the millisecond their delay ends, which can be the next one for the
        // later ones: the follow-up, due at once, may come before those but never before its parent.
        XCTAssertEqual(fired.filter { $0 != "fired 9" && $0 != "fired 7" }, (0..<6).map { "fired \($0)" })
        XCTAssertGreaterThan(fired.firstIndex(of: "fired 9")!, fired.firstIndex(of: "fired 1")!)
        XCTAssertEqual(fired.last, "fired 7")
        XCTAssertTrue(thread.stop())
    }

    /// A task fired or cancelled can be scheduled again.
    func testATaskCanBeScheduledAgainAfterItFiredOrWasCancelled() throws {
        let thread = try LoopThread()
        let record = Locked<[String]>([])
        let task = LoopConfined<TaggedTask?>(nil)
        try thread.sync {
            let made = TaggedTask(1, record: record)
            task.value = made
            thread.loop.schedule(made, afterNanoseconds: 500_000_000)
            thread.loop.cancel(made)
            XCTAssertFalse(made.isScheduled)
            XCTAssertTrue(thread.loop.schedule(made, afterNanoseconds: 5_000_000))
        }
        XCTAssertTrue(eventually { record.withLock { $0 } == ["fired 1"] })
        try thread.sync { XCTAssertTrue(thread.loop.schedule(task.value!, afterNanoseconds: 5_000_000)) }
        XCTAssertTrue(eventually { record.withLock { $0 } == ["fired 1", "fired 1"] })
        XCTAssertTrue(thread.stop())
    }

    /// A task never fires before its delay has passed, even when scheduled late in a loop turn
    /// (the loop's cached time then lags behind): each fires `delay` or more after it was
    /// scheduled, by the monotonic clock.
    func testTasksNeverFireEarly() throws {
        let thread = try LoopThread()
        let early = Locked<[String]>([])
        let fired = Locked(0)
        let rounds = 20
        for round in 0..<rounds {
            let delay = Int64(1 + round % 3) * 1_000_000
            try thread.sync {
                // Spends most of a millisecond of this turn first, so the cached loop time is stale.
                let turnStart = monotonicNanoseconds()
                while monotonicNanoseconds() - turnStart < 900_000 {}
                let task = StopwatchTask(delay: delay, early: early, fired: fired)
                thread.loop.schedule(task, afterNanoseconds: delay)
            }
        }
        XCTAssertTrue(eventually { fired.withLock { $0 } == rounds })
        XCTAssertEqual(early.withLock { $0 }, [])
        XCTAssertTrue(thread.stop())
    }

    /// The shared timer is armed for the earliest task's own instant, to the nanosecond, not
    /// the end of a millisecond; after the last task fires it is disarmed.
    func testTheTimerIsArmedForTheEarliestTasksInstant() throws {
        let thread = try LoopThread()
        let record = Locked<[String]>([])
        try thread.sync {
            let queue = thread.loop.timers
            XCTAssertNil(queue.remainingNanoseconds, "nothing scheduled, nothing armed")
            let delay: Int64 = 200_500_000
            let scheduledAfter = uv_hrtime()
            thread.loop.schedule(TaggedTask(1, record: record), afterNanoseconds: delay)
            let scheduledBefore = uv_hrtime()
            thread.loop.schedule(TaggedTask(2, record: record), afterNanoseconds: delay + 300_000_000)
            let before = uv_hrtime()
            let remaining = try XCTUnwrap(queue.remainingNanoseconds)
            let after = uv_hrtime()
            // Armed at before + remaining ... after + remaining, for a due instant made between
            // scheduledAfter + delay and scheduledBefore + delay.
            XCTAssertLessThanOrEqual(scheduledAfter + UInt64(delay), after + remaining)
            XCTAssertGreaterThanOrEqual(scheduledBefore + UInt64(delay), before + remaining)
        }
        XCTAssertTrue(eventually { record.withLock { $0 } == ["fired 1", "fired 2"] })
        XCTAssertNil(try thread.sync { thread.loop.timers.remainingNanoseconds }, "disarmed once empty")
        XCTAssertTrue(thread.stop())
    }

    /// Tasks still waiting when the loop stops are dropped, once, and none is taken after.
    func testTasksWaitingWhenTheLoopStopsAreDropped() throws {
        let thread = try LoopThread()
        let record = Locked<[String]>([])
        thread.loop.execute {
            thread.loop.schedule(TaggedTask(1, record: record), afterNanoseconds: 60_000_000_000)
            thread.loop.schedule(TaggedTask(2, record: record), afterNanoseconds: 30_000_000_000)
            thread.loop.stop()
            let late = TaggedTask(3, record: record)
            XCTAssertFalse(thread.loop.schedule(late, afterNanoseconds: 1_000_000), "a stopping loop takes no task")
            XCTAssertFalse(late.isScheduled)
        }
        XCTAssertTrue(eventually { record.withLock { $0.count } == 2 })
        XCTAssertEqual(Set(record.withLock { $0 }), ["dropped 1", "dropped 2"])
        XCTAssertTrue(thread.stop())
    }
}
