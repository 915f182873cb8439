import WebSocket
import XCTest

/// The size `WebSocketProtocolMachine`'s comment states, pinned: every connection holds a
/// machine, and its field order "keeps it at 80 bytes".
final class WebSocketLayoutTests: XCTestCase {
    func testProtocolMachineIs80Bytes() {
        XCTAssertEqual(MemoryLayout<WebSocketProtocolMachine>.size, 80)
        XCTAssertEqual(MemoryLayout<WebSocketProtocolMachine>.stride, 80)
    }
}
