import XCTest
@testable import WebSocket

final class WebSocketFrameEncoderTests: XCTestCase {
    /// Reads encoded frames back with a machine that accepts unmasked frames.
    private func decode(_ bytes: [UInt8]) -> [RecordedEvent] {
        var machine = WebSocketProtocolMachine(configuration: .init(requiresMasking: false))
        return feed(&machine, bytes)
    }

    func testTextFrameIsUnmaskedWithFin() {
        var out: [UInt8] = []
        WebSocketFrameEncoder.appendText("Hello", to: &out)
        XCTAssertEqual(out, [0x81, 0x05] + Array("Hello".utf8))
    }

    func testLongTextUsesExtendedLengthAndRoundTrips() {
        let text = String(repeating: "é", count: 40_000)   // 80,000 bytes
        var out: [UInt8] = []
        WebSocketFrameEncoder.appendText(text, to: &out)
        XCTAssertEqual(out[1], 127)
        var machine = WebSocketProtocolMachine(configuration: .init(maxMessageSize: 100_000, requiresMasking: false))
        XCTAssertEqual(feed(&machine, out), [.text(text)])
    }

    func testPongEchoesPayload() {
        var out: [UInt8] = []
        [UInt8]([1, 2, 3]).withUnsafeBytes { WebSocketFrameEncoder.appendPong(payload: $0, to: &out) }
        XCTAssertEqual(out, [0x8A, 0x03, 1, 2, 3])
    }

    func testPingFrame() {
        var out: [UInt8] = []
        [UInt8]([7]).withUnsafeBytes { WebSocketFrameEncoder.appendPing(payload: $0, to: &out) }
        XCTAssertEqual(out, [0x89, 0x01, 7])
    }

    func testCloseFrameWithCodeAndReason() {
        var out: [UInt8] = []
        WebSocketFrameEncoder.appendClose(code: .goingAway, reason: "bye", to: &out)
        XCTAssertEqual(out, [0x88, 0x05, 0x03, 0xE9] + Array("bye".utf8))
        out.removeAll()
        WebSocketFrameEncoder.appendClose(code: nil, to: &out)
        XCTAssertEqual(out, [0x88, 0x00])
    }

    func testCloseReasonIsCutAtACharacterBoundary() {
        // 61 two-byte characters = 122 bytes fit; the 62nd would need bytes 123-124 of 123.
        let reason = String(repeating: "é", count: 70)
        var out: [UInt8] = []
        WebSocketFrameEncoder.appendClose(code: .normal, reason: reason, to: &out)
        XCTAssertEqual(out[1], 2 + 122)
        XCTAssertEqual(decode(out), [.peerClosed(code: 1000, reason: String(repeating: "é", count: 61))])
    }

    func testWriteIntoRawBufferReportsSizeAndRefusesSmallBuffers() {
        var buffer = [UInt8](repeating: 0, count: 16)
        let written = buffer.withUnsafeMutableBytes { target in
            Array("abc".utf8).withUnsafeBytes { WebSocketFrameEncoder.writeFrame(opcode: .text, payload: $0, into: target) }
        }
        XCTAssertEqual(written, 5)
        XCTAssertEqual(Array(buffer[..<5]), [0x81, 3] + Array("abc".utf8))
        var small = [UInt8](repeating: 0, count: 4)
        let refused = small.withUnsafeMutableBytes { target in
            Array("abc".utf8).withUnsafeBytes { WebSocketFrameEncoder.writeFrame(opcode: .text, payload: $0, into: target) }
        }
        XCTAssertNil(refused)
        let close = buffer.withUnsafeMutableBytes { WebSocketFrameEncoder.writeClose(code: .protocolError, into: $0) }
        XCTAssertEqual(close, 4)
        XCTAssertEqual(Array(buffer[..<4]), [0x88, 2, 0x03, 0xEA])
    }

    func testMaskedClientFramesAreReadByAServerMachine() {
        var out: [UInt8] = []
        var generator = SystemRandomNumberGenerator()
        let key = WebSocketMaskingKey.random(using: &generator)
        WebSocketFrameEncoder.appendText("masked", maskingKey: key, to: &out)
        XCTAssertEqual(out[1] & 0x80, 0x80)
        var machine = WebSocketProtocolMachine()
        XCTAssertEqual(feed(&machine, out), [.text("masked")])
    }
}

final class WebSocketFrameEncoderHeaderOnlyTests: XCTestCase {
    func testHeaderOnlyForSeparatePayloadBuffer() {
        var buffer = [UInt8](repeating: 0, count: WebSocketFrameHeader.maxServerSize)
        let small = buffer.withUnsafeMutableBytes { WebSocketFrameEncoder.writeHeader(opcode: .text, payloadLength: 5, into: $0) }
        XCTAssertEqual(small, 2)
        XCTAssertEqual(Array(buffer[..<2]), [0x81, 5])
        let large = buffer.withUnsafeMutableBytes { WebSocketFrameEncoder.writeHeader(opcode: .text, payloadLength: 70_000, into: $0) }
        XCTAssertEqual(large, 10)
        XCTAssertEqual(Array(buffer[..<10]), [0x81, 127, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70])
    }

    /// The header packed into a word (the connection's path under 64 KiB) holds, from its low
    /// byte up, the bytes `writeHeader` writes, at every length boundary; 64 KiB has none.
    func testPackedHeaderIsTheWrittenHeaderUnder64KiB() {
        for opcode in [WebSocketOpcode.text, .binary, .continuation] {
            for compressed in [false, true] {
                for length in [0, 1, 125, 126, 127, 300, 65_535] {
                    var written = [UInt8](repeating: 0, count: WebSocketFrameHeader.maxServerSize)
                    let size = written.withUnsafeMutableBytes {
                        WebSocketFrameEncoder.writeHeader(opcode: opcode, compressed: compressed, payloadLength: length, into: $0)
                    }
                    guard let packed = WebSocketFrameEncoder.packedHeader(opcode: opcode, compressed: compressed,
                                                                          payloadLength: length) else {
                        return XCTFail("no packed header for \(length) bytes")
                    }
                    XCTAssertEqual(packed.size, size, "\(opcode) \(length)")
                    let bytes = withUnsafeBytes(of: packed.word.littleEndian) { Array($0.prefix(packed.size)) }
                    XCTAssertEqual(bytes, Array(written.prefix(packed.size)), "\(opcode) compressed \(compressed) \(length)")
                }
            }
        }
        XCTAssertNil(WebSocketFrameEncoder.packedHeader(opcode: .text, payloadLength: 65_536))
    }
}
