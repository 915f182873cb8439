@testable import EventLoop
import ObjectSizeTestSupport
import XCTest

/// The sizes that comments in Sources/EventLoop state, pinned: a layout change fails here.
final class EventLoopLayoutTests: XCTestCase {
    /// `TCPConnection`: "at 120 bytes it takes a 128-byte malloc block".
    func testTCPConnectionIs120BytesInA128ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: TCPConnection.self), 120)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: ObjectSize.instance(of: TCPConnection.self)), 128)
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
