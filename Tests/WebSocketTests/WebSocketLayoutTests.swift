@testable import WebSocket
import XCTest

/// The size `WebSocketProtocolMachine`'s comment states, pinned: every connection holds a
/// machine, and its field order "keeps it at 48 bytes".
final class WebSocketLayoutTests: XCTestCase {
    func testProtocolMachineIs48Bytes() {
        XCTAssertEqual(MemoryLayout<WebSocketProtocolMachine>.size, 48)
        XCTAssertEqual(MemoryLayout<WebSocketProtocolMachine>.stride, 48)
        XCTAssertEqual(MemoryLayout<WebSocketProtocolMachine.Configuration>.size, 6, "the limit in 32 bits and two flags")
    }

    /// A split header's bytes sit in the frame's integer fields: those come first and hold
    /// the longest header, so collecting one never touches the frame's opcode and flags,
    /// whose bytes must stay valid values.
    func testASplitHeaderFitsInTheFramesIntegerFields() {
        typealias Frame = WebSocketProtocolMachine.Frame
        XCTAssertEqual(MemoryLayout<Frame>.offset(of: \Frame.length), 0)
        XCTAssertEqual(MemoryLayout<Frame>.offset(of: \Frame.offset), 4)
        XCTAssertEqual(MemoryLayout<Frame>.offset(of: \Frame.keyBits), 8)
        XCTAssertEqual(MemoryLayout<Frame>.offset(of: \Frame.headerTail), 12)
        XCTAssertEqual(WebSocketFrameHeader.maxSize, 14)
        XCTAssertGreaterThanOrEqual(MemoryLayout<Frame>.offset(of: \Frame.opcode) ?? 0, 14)
    }

    /// A limit past 32 bits is kept at the most a frame's 32-bit length can say.
    func testTheMessageLimitIsKeptWithin32Bits() {
        XCTAssertEqual(WebSocketProtocolMachine.Configuration(maxMessageSize: 1 << 40).maxMessageSize, Int(UInt32.max))
        XCTAssertEqual(WebSocketProtocolMachine.Configuration(maxMessageSize: -1).maxMessageSize, 0)
        var configuration = WebSocketProtocolMachine.Configuration()
        configuration.maxMessageSize = 1 << 33
        XCTAssertEqual(configuration.maxMessageSize, Int(UInt32.max))
    }
}
