@testable import EventLoop
import CLibUV
import NetworkTestSupport
import ObjectSizeTestSupport
import XCTest

/// The sizes that comments in Sources/EventLoop state, pinned: a layout change fails here.
final class EventLoopLayoutTests: XCTestCase {
    /// `TCPConnection`: "with its `uv_tcp_t` at 340 bytes it takes a 352-byte malloc block",
    /// where the handle in its own block took 256 bytes and the object 128. The write queue
    /// is 28 bytes (its chunks one word, the unsent total 32 bits) and ends the object (the
    /// deadline's due time lives in the loop's deadline heap).
    func testTCPConnectionWithItsHandleIs340BytesInA352ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: TCPConnection.self), 340)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 340), 352)
        XCTAssertEqual(MemoryLayout<ChunkList>.size, 8)
        XCTAssertEqual(MemoryLayout<WriteQueue>.size, 28)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: MemoryLayout<uv_tcp_t>.size), 256)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 120), 128)
    }

    /// `LoopHandle.rawHandle`: the handle's memory is the object's first field, right after
    /// the two-word header, in the object's own malloc block; the object outlives `close()`
    /// until libuv's close callback, then goes.
    func testTheHandleIsTheConnectionsFirstFieldAndLivesUntilTheCloseCallback() throws {
        let handlesAtStart = LiveCounts.handles
        let thread = try LoopThread()
        let gone = Locked<WeakConnection?>(nil)
        let closedAtOnce = try thread.sync { () -> Bool in
            let connection = try TCPConnection(loop: thread.loop)
            let object = Unmanaged.passUnretained(connection).toOpaque()
            XCTAssertEqual(connection.rawHandle - object, 16)
            XCTAssertEqual(UnsafeMutableRawPointer(connection.tcp), connection.rawHandle)
            XCTAssertEqual(connection.uvHandle.pointee.data, object, "libuv's data names the wrapper")
            if ObjectSize.isSystemMalloc {
                // At least the 352 bytes asked for: glibc hands out a free chunk whole when the
                // rest would be too small to keep (368 seen in a long test run).
                XCTAssertGreaterThanOrEqual(ObjectSize.mallocBlock(of: connection), 352)
            }
            connection.close()
            gone.withLock { $0 = WeakConnection(connection) }
            return connection.isClosed
        }
        XCTAssertFalse(closedAtOnce, "the close callback comes on a later turn of the loop")
        XCTAssertTrue(eventually { gone.withLock { $0?.connection == nil } }, "released after the close callback")
        XCTAssertTrue(thread.stop())
        XCTAssertEqual(LiveCounts.handles, handlesAtStart)
    }

    /// `PendingWrite`: "the request comes first, so a pointer to one is a pointer to the other".
    func testPendingWriteStartsWithItsRequest() {
        XCTAssertEqual(MemoryLayout<PendingWrite>.offset(of: \.request), 0)
    }

    /// `ConnectionDeadlines`: an idle connection pays "a heap entry (8 bytes)".
    func testDeadlineHeapEntryIs8Bytes() {
        XCTAssertEqual(MemoryLayout<Unmanaged<TCPConnection>>.stride, 8)
    }
}

private struct WeakConnection: @unchecked Sendable {  // read and written under the test's lock
    weak var connection: TCPConnection?
    init(_ connection: TCPConnection) { self.connection = connection }
}
