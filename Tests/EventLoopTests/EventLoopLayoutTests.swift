@testable import EventLoop
import ObjectSizeTestSupport
import XCTest

/// The sizes that comments in Sources/EventLoop state, pinned: a layout change fails here.
final class EventLoopLayoutTests: XCTestCase {
    /// `TCPConnection`: "at 136 bytes it takes a 144-byte malloc block".
    func testTCPConnectionIs136BytesInA144ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: TCPConnection.self), 136)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: ObjectSize.instance(of: TCPConnection.self)), 144)
    }

    /// `ConnectionDeadlines`: an idle connection pays "a heap entry (8 bytes)".
    func testDeadlineHeapEntryIs8Bytes() {
        XCTAssertEqual(MemoryLayout<Unmanaged<TCPConnection>>.stride, 8)
    }
}
