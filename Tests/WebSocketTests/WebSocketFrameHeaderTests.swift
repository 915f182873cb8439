import XCTest
@testable import WebSocket

final class WebSocketFrameHeaderTests: XCTestCase {
    private func encode(_ header: WebSocketFrameHeader) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: WebSocketFrameHeader.maxSize)
        let size = bytes.withUnsafeMutableBytes { header.write(into: $0) }
        return Array(bytes[..<(size ?? 0)])
    }

    private func parse(_ bytes: [UInt8]) -> WebSocketFrameHeader.ParseResult {
        bytes.withUnsafeBytes { WebSocketFrameHeader.parse($0) }
    }

    func testRFCExampleHeaders() {
        // RFC 6455 5.7: unmasked "Hello" and masked "Hello".
        XCTAssertEqual(encode(WebSocketFrameHeader(opcode: .text, payloadLength: 5)), [0x81, 0x05])
        let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
        XCTAssertEqual(encode(WebSocketFrameHeader(opcode: .text, maskingKey: key, payloadLength: 5)),
                       [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D])
        // A 256-byte binary frame uses the 16-bit length; 64 KiB the 64-bit one.
        XCTAssertEqual(encode(WebSocketFrameHeader(opcode: .binary, payloadLength: 256)), [0x82, 0x7E, 0x01, 0x00])
        XCTAssertEqual(encode(WebSocketFrameHeader(opcode: .binary, payloadLength: 65536)),
                       [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
    }

    func testLengthBoundariesRoundTrip() {
        for length: UInt64 in [0, 125, 126, 65535, 65536, 1 << 40, (1 << 63) - 1] {
            for key in [nil, WebSocketMaskingKey(1, 2, 3, 4)] {
                let header = WebSocketFrameHeader(fin: length % 2 == 0, reservedBits: 0b101, opcode: .pong,
                                                  maskingKey: key, payloadLength: length)
                let bytes = encode(header)
                XCTAssertEqual(bytes.count, header.encodedSize)
                XCTAssertEqual(parse(bytes), .header(header, size: bytes.count), "length \(length)")
                XCTAssertEqual(WebSocketFrameHeader.size(secondByte: bytes[1]), bytes.count)
            }
        }
    }

    func testIncompleteHeadersSayHowManyBytesAreNeeded() {
        XCTAssertEqual(parse([]), .incomplete(needed: 2))
        XCTAssertEqual(parse([0x81]), .incomplete(needed: 2))
        XCTAssertEqual(parse([0x81, 0xFE, 0x01]), .incomplete(needed: 8))   // 16-bit length + key
        XCTAssertEqual(parse([0x81, 0x7F, 0, 0]), .incomplete(needed: 10))  // 64-bit length, no key
    }

    func testSixtyFourBitLengthWithTopBitSetIsInvalid() {
        XCTAssertEqual(parse([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0]), .invalidLength)
    }

    func testReservedOpcodeParsesButHasNoOpcode() {
        guard case .header(let header, _) = parse([0x83, 0x00]) else { return XCTFail("no header") }
        XCTAssertEqual(header.opcodeBits, 3)
        XCTAssertNil(header.opcode)
    }

    func testWriteRefusesASmallBuffer() {
        var bytes = [UInt8](repeating: 0, count: 3)
        let size = bytes.withUnsafeMutableBytes { WebSocketFrameHeader(opcode: .text, payloadLength: 300).write(into: $0) }
        XCTAssertNil(size)
    }
}
