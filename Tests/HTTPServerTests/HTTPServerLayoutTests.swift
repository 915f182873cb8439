import HTTPServer
import ObjectSizeTestSupport
import XCTest

/// The size `WebSocketConnection`'s comment states, pinned: a layout change fails here.
final class HTTPServerLayoutTests: XCTestCase {
    /// "at 104 bytes it takes a 112-byte malloc block".
    func testWebSocketConnectionIs104BytesInA112ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: WebSocketConnection.self), 104)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: ObjectSize.instance(of: WebSocketConnection.self)), 112)
    }
}

/// `HTTPRequestDecoder.waitingHead`: "one word rather than a whole head" (a 161-byte head
/// inline made every HTTP connection 296 bytes, which each upgrade then carved the session from).
final class HTTPRequestDecoderLayoutTests: XCTestCase {
    func testDecoderKeepsNoWholeHead() {
        XCTAssertEqual(MemoryLayout<HTTPRequestDecoder>.size, 73)
        XCTAssertLessThan(MemoryLayout<HTTPRequestDecoder>.size, MemoryLayout<HTTPRequestHead>.size)
    }
}
