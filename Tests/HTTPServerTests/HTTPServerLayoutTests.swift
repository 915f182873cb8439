import HTTPServer
import ObjectSizeTestSupport
import XCTest

/// The size `WebSocketConnection`'s comment states, pinned: a layout change fails here.
final class HTTPServerLayoutTests: XCTestCase {
    /// "at 136 bytes it takes a 144-byte malloc block".
    func testWebSocketConnectionIs136BytesInA144ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: WebSocketConnection.self), 136)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: ObjectSize.instance(of: WebSocketConnection.self)), 144)
    }
}
