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

/// The loop's timed tasks (`EventLoop.schedule(_:after:)`): one shared timer, each task run
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
                XCTAssertTrue(thread.loop.schedule(task, after: .milliseconds(delays[tag])))
            }
            XCTAssertFalse(thread.loop.schedule(tasks[0], after: .milliseconds(1)), "a scheduled task is not scheduled twice")
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
    /// delay from a firing task runs in the same pass, before a later one.
    func testTasksDueTogetherRunInScheduleOrder() throws {
        let thread = try LoopThread()
        let record = Locked<[String]>([])
        try thread.sync {
            let tasks = (0..<6).map { TaggedTask($0, record: record) }
            let followUp = TaggedTask(9, record: record)
            let later = TaggedTask(7, record: record)
            tasks[1].onFire = { thread.loop.schedule(followUp, after: .zero) }
            for task in tasks { thread.loop.schedule(task, after: .milliseconds(15)) }
            thread.loop.schedule(later, after: .milliseconds(40))
        }
        XCTAssertTrue(eventually { record.withLock { $0.count } == 8 })
        XCTAssertEqual(record.withLock { $0 }, ["fired 0", "fired 1", "fired 2", "fired 3", "fired 4", "fired 5", "fired 9", "fired 7"])
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
            thread.loop.schedule(made, after: .milliseconds(500))
            thread.loop.cancel(made)
            XCTAssertFalse(made.isScheduled)
            XCTAssertTrue(thread.loop.schedule(made, after: .milliseconds(5)))
        }
        XCTAssertTrue(eventually { record.withLock { $0 } == ["fired 1"] })
        try thread.sync { XCTAssertTrue(thread.loop.schedule(task.value!, after: .milliseconds(5))) }
        XCTAssertTrue(eventually { record.withLock { $0 } == ["fired 1", "fired 1"] })
        XCTAssertTrue(thread.stop())
    }

    /// Tasks still waiting when the loop stops are dropped, once, and none is taken after.
    func testTasksWaitingWhenTheLoopStopsAreDropped() throws {
        let thread = try LoopThread()
        let record = Locked<[String]>([])
        thread.loop.execute {
            thread.loop.schedule(TaggedTask(1, record: record), after: .seconds(60))
            thread.loop.schedule(TaggedTask(2, record: record), after: .seconds(30))
            thread.loop.stop()
            let late = TaggedTask(3, record: record)
            XCTAssertFalse(thread.loop.schedule(late, after: .milliseconds(1)), "a stopping loop takes no task")
            XCTAssertFalse(late.isScheduled)
        }
        XCTAssertTrue(eventually { record.withLock { $0.count } == 2 })
        XCTAssertEqual(Set(record.withLock { $0 }), ["dropped 1", "dropped 2"])
        XCTAssertTrue(thread.stop())
    }
}
