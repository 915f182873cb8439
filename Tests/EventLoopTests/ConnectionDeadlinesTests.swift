@testable import EventLoop
import Foundation
import NetworkTestSupport
import Synchronization
import XCTest

/// Records which connections' deadlines passed, in order (on the loop thread).
private final class DeadlineRecorder: TCPConnectionDelegate {
    let fired: Locked<[Int]>
    let tags: [ObjectIdentifier: Int]
    init(fired: Locked<[Int]>, tags: [ObjectIdentifier: Int]) {
        self.fired = fired
        self.tags = tags
    }
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {}
    func connectionDidReachEOF(_ connection: TCPConnection) {}
    func connectionDidClose(_ connection: TCPConnection) {}
    func connectionDeadlinePassed(_ connection: TCPConnection) {
        let tag = tags[ObjectIdentifier(connection)]!
        fired.withLock { $0.append(tag) }
    }
}

/// The loop's heap of connection deadlines: one timer for all, each connection's deadline
/// fired once, in due order; cleared and moved deadlines are honoured.
final class ConnectionDeadlinesTests: XCTestCase {
    func testDeadlinesFireInDueOrderAndClearedOrMovedOnesAreHonoured() throws {
        let handlesAtStart = LiveCounts.handles
        let thread = try LoopThread()
        let fired = Locked<[Int]>([])
        let connections = LoopConfined<[TCPConnection]>([])
        let count = 30
        // Distinct due times 3 ms apart, armed in a scrambled order.
        let delays = (0..<count).map { 20 + 3 * (($0 * 7) % count) }
        let cleared = Set(stride(from: 4, to: count, by: 5))
        let moved = 0  // armed first, then moved after every other deadline
        try thread.sync {
            let made = try (0..<count).map { _ in try TCPConnection(loop: thread.loop) }
            var tags: [ObjectIdentifier: Int] = [:]
            for (tag, connection) in made.enumerated() { tags[ObjectIdentifier(connection)] = tag }
            let recorder = DeadlineRecorder(fired: fired, tags: tags)
            for (tag, connection) in made.enumerated() {
                connection.delegate = recorder
                connection.setDeadline(after: .milliseconds(delays[tag]))
            }
            for tag in cleared { made[tag].clearDeadline() }
            made[moved].setDeadline(after: .milliseconds(20 + 3 * count + 30))
            connections.value = made
        }
        let expected = (0..<count).filter { !cleared.contains($0) && $0 != moved }
            .sorted { delays[$0] < delays[$1] } + [moved]
        XCTAssertTrue(eventually { fired.withLock { $0.count } == expected.count })
        usleep(100_000)  // nothing more comes: cleared deadlines never fire, none fires twice
        XCTAssertEqual(fired.withLock { $0 }, expected)

        try thread.sync {
            for connection in connections.value { connection.close() }
            connections.value = []
        }
        XCTAssertTrue(thread.stop())
        XCTAssertEqual(LiveCounts.handles, handlesAtStart)
    }

    func testAClosedConnectionLeavesTheHeapAndItsDeadlineNeverFires() throws {
        let thread = try LoopThread()
        let fired = Locked<[Int]>([])
        let connections = LoopConfined<[TCPConnection]>([])
        try thread.sync {
            let made = try (0..<3).map { _ in try TCPConnection(loop: thread.loop) }
            let recorder = DeadlineRecorder(fired: fired, tags: Dictionary(uniqueKeysWithValues: made.enumerated().map {
                (ObjectIdentifier($0.element), $0.offset)
            }))
            for (tag, connection) in made.enumerated() {
                connection.delegate = recorder
                connection.setDeadline(after: .milliseconds(30 + 10 * tag))
            }
            made[1].close()  // the middle entry of the heap
            connections.value = made
        }
        XCTAssertTrue(eventually { fired.withLock { $0.count } == 2 })
        usleep(100_000)
        XCTAssertEqual(fired.withLock { $0 }, [0, 2])
        try thread.sync {
            for connection in connections.value { connection.close() }
            connections.value = []
        }
        XCTAssertTrue(thread.stop())
    }

    /// Due times are kept in 32 bits: read back near the loop's time they are the same
    /// times on either side of a 2^32 ms boundary, and never before time zero.
    func testA32BitDueTimeIsReadBackNearTheLoopTime() {
        let boundary: UInt64 = 1 << 32
        for now in [boundary - 10, boundary + 5, 7 * boundary + 123, 50_000] {
            for offset in [-20_000, -1, 0, 1, 20, 30_000, Int(ConnectionDeadlines.longestDelay)] {
                let due = UInt64(Int64(now) + Int64(offset))
                XCTAssertEqual(ConnectionDeadlines.loopTime(of: UInt32(truncatingIfNeeded: due), near: now), due,
                               "now \(now), offset \(offset)")
            }
        }
        XCTAssertEqual(ConnectionDeadlines.loopTime(of: UInt32.max, near: 3), 0, "before the loop's time zero")
    }

    /// The heap orders due times across a 2^32 boundary by time, not by their low bits, and
    /// a delay past `longestDelay` is kept at it.
    func testDeadlinesAcrossA32BitBoundaryKeepTheirOrder() throws {
        let thread = try LoopThread()
        let early = UInt32.max - 5  // just before the boundary
        let late: UInt32 = 10  // just after it
        XCTAssertEqual([Unmanaged<TCPConnection>.precedes(early, late), Unmanaged<TCPConnection>.precedes(late, early)],
                       [true, false])
        let clamped = try thread.sync { () -> Bool in
            let connection = try TCPConnection(loop: thread.loop)
            let now = thread.loop.nowMilliseconds
            connection.setDeadline(afterMilliseconds: 100 * ConnectionDeadlines.longestDelay)
            let due = thread.loop.deadlines.due(of: connection) ?? 0
            connection.close()
            return due >= now + ConnectionDeadlines.longestDelay && due <= now + ConnectionDeadlines.longestDelay + 1_000
        }
        XCTAssertTrue(clamped, "a longer delay is kept at the longest")
        XCTAssertTrue(thread.stop())
    }
}
