import XCTest
@testable import WebSocket

final class WebSocketMaskingKeyTests: XCTestCase {
    /// The definition: byte i is XORed with key byte i % 4.
    private func reference(_ bytes: [UInt8], _ key: WebSocketMaskingKey, offset: Int) -> [UInt8] {
        bytes.enumerated().map { $0.element ^ key[($0.offset + offset) % 4] }
    }

    func testRFCExample() {
        // RFC 6455 5.7: "Hello" masked with 37 fa 21 3d.
        var bytes = Array("Hello".utf8)
        let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
        bytes.withUnsafeMutableBytes { key.apply(to: $0, frameOffset: 0) }
        XCTAssertEqual(bytes, [0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    func testMatchesTheDefinitionForEveryOffsetAndLength() {
        let key = WebSocketMaskingKey(0xA1, 0x02, 0xC3, 0x74)
        let source = (0 ..< 53).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
        for offset in 0 ..< 8 {
            for length in 0 ... source.count {
                var bytes = Array(source[..<length])
                bytes.withUnsafeMutableBytes { key.apply(to: $0, frameOffset: UInt64(offset)) }
                XCTAssertEqual(bytes, reference(Array(source[..<length]), key, offset: offset),
                               "offset \(offset) length \(length)")
            }
        }
    }

    func testApplyingInPiecesEqualsApplyingOnce() {
        let key = WebSocketMaskingKey(9, 8, 7, 6)
        let source = (0 ..< 40).map { UInt8($0) }
        var whole = source
        whole.withUnsafeMutableBytes { key.apply(to: $0, frameOffset: 0) }
        var pieces = source
        pieces.withUnsafeMutableBytes { all in
            for range in [0 ..< 3, 3 ..< 13, 13 ..< 14, 14 ..< 40] {
                key.apply(to: UnsafeMutableRawBufferPointer(rebasing: all[range]), frameOffset: UInt64(range.lowerBound))
            }
        }
        XCTAssertEqual(pieces, whole)
        XCTAssertNotEqual(whole, source)
    }
}
