@testable import WebSocket
import XCTest

/// The size `WebSocketProtocolMachine`'s comment states, pinned: every connection holds a
/// machine, and its field order "keeps it at 64 bytes".
final class WebSocketLayoutTests: XCTestCase {
    func testProtocolMachineIs64Bytes() {
        XCTAssertEqual(MemoryLayout<WebSocketProtocolMachine>.size, 64)
        XCTAssertEqual(MemoryLayout<WebSocketProtocolMachine>.stride, 64)
    }

    /// A split header's bytes sit in the frame's `length` and `offset`: those come first and
    /// hold the longest header, so collecting one never touches the frame's other fields.
    func testASplitHeaderFitsInTheFramesLengthAndOffset() {
        typealias Frame = WebSocketProtocolMachine.Frame
        XCTAssertEqual(MemoryLayout<Frame>.offset(of: \Frame.length), 0)
        XCTAssertEqual(MemoryLayout<Frame>.offset(of: \Frame.offset), 8)
        XCTAssertGreaterThanOrEqual(16, WebSocketFrameHeader.maxSize)
        XCTAssertGreaterThanOrEqual(MemoryLayout<Frame>.offset(of: \Frame.key) ?? 0, 16)
    }
}
