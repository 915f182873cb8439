@testable import EventLoop
import Foundation
import NetworkTestSupport
import XCTest

final class EventLoopGroupTests: XCTestCase {
    func testTheAllowedProcessorsAreCountedFromProcStatus() {
        func count(_ list: String) -> Int? {
            EventLoopGroup.allowedProcessorCount(procStatus: "Name:\trxlive\nCpus_allowed:\tf\nCpus_allowed_list:\t\(list)\nMems_allowed:\t1\n")
        }
        XCTAssertEqual(count("0"), 1)
        XCTAssertEqual(count("0-1"), 2)
        XCTAssertEqual(count("0,2-3,7"), 4)
        XCTAssertNil(count("3-1"))
        XCTAssertNil(count("a-b"))
        XCTAssertNil(EventLoopGroup.allowedProcessorCount(procStatus: "Name:\trxlive\n"))
    }

    func testEveryLoopRunsOnItsOwnThreadUntilAllAreStopped() throws {
        let handlesBefore = LiveCounts.handles
        let group = try EventLoopGroup(count: 3)
        let threads = Locked<[Int: UInt]>([:])
        for (index, loop) in group.loops.enumerated() {
            loop.execute {
                let isCurrent = EventLoop.current === loop
                let seen = threads.withLock { threads in
                    threads[index] = isCurrent ? UInt(pthread_self()) : 0
                    return threads.count
                }
                if seen == 3 { group.stop() }
            }
        }
        let finished = DispatchSemaphore(value: 0)
        Thread {
            group.run()
            finished.signal()
        }.start()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        let seen = threads.withLock { $0 }
        XCTAssertFalse(seen.values.contains(0), "work ran off its loop")
        XCTAssertEqual(Set(seen.values).count, 3)
        XCTAssertEqual(LiveCounts.handles, handlesBefore)
    }
}
