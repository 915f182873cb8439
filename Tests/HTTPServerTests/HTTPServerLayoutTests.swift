import HTTPServer
import ObjectSizeTestSupport
import XCTest

/// The size `WebSocketConnection`'s comment states, pinned: a layout change fails here.
final class HTTPServerLayoutTests: XCTestCase {
    /// "at 120 bytes it takes a 128-byte malloc block".
    func testWebSocketConnectionIs120BytesInA128ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: WebSocketConnection.self), 120)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: ObjectSize.instance(of: WebSocketConnection.self)), 128)
    }
}
