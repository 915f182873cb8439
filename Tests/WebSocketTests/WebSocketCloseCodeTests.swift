import XCTest
@testable import WebSocket

final class WebSocketCloseCodeTests: XCTestCase {
    func testWireValidityOverTheWholeRange() {
        for raw in 0 ... Int(UInt16.max) {
            let code = WebSocketCloseCode(rawValue: UInt16(raw))
            let expected = (1000 ... 1003).contains(raw) || (1007 ... 1014).contains(raw) || (3000 ... 4999).contains(raw)
            XCTAssertEqual(code.isValidOnWire, expected, "\(raw)")
        }
    }

    func testLocalOnlyCodesAreNotValidOnWire() {
        XCTAssertFalse(WebSocketCloseCode.noStatusReceived.isValidOnWire)
        XCTAssertFalse(WebSocketCloseCode.abnormalClosure.isValidOnWire)
        XCTAssertEqual(WebSocketCloseCode.messageTooBig.rawValue, 1009)
        XCTAssertEqual(WebSocketCloseCode.invalidPayload.rawValue, 1007)
    }

    func testOpcodeControlBit() {
        XCTAssertTrue(WebSocketOpcode.ping.isControl)
        XCTAssertTrue(WebSocketOpcode.close.isControl)
        XCTAssertFalse(WebSocketOpcode.continuation.isControl)
        XCTAssertFalse(WebSocketOpcode.binary.isControl)
    }
}
