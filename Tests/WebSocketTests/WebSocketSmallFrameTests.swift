import XCTest
@testable import WebSocket

/// The one-pass path for a whole small masked frame in one read must agree with the general
/// path, which takes the same frame when it is split across reads (`assertEvents` feeds it
/// whole, in small pieces and split in two at every position).
final class WebSocketSmallFrameTests: XCTestCase {
    private let keys = [WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D), WebSocketMaskingKey(0, 0, 0, 0),
                        WebSocketMaskingKey(0xFF, 0x80, 0x01, 0x7F)]

    func testASCIITextOfEveryShortLengthWithSeveralKeys() {
        for length in 0 ... 125 {
            let text = String((0 ..< length).map { Character(UnicodeScalar(UInt8(32 + $0 % 95))) })
            for key in keys {
                assertEvents(clientFrame(.text, Array(text.utf8), key: key), [.text(text)])
            }
        }
    }

    func testMediumLengthsAroundTheWholeFrameLimit() {
        for length in [126, 127, 200, 1023, 1024, 1025, 2000] {
            let text = String((0 ..< length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            assertEvents(clientFrame(.text, Array(text.utf8), key: keys[2]), [.text(text)])
            var invalid = Array(text.utf8)
            invalid[length - 1] = 0xC3   // a sequence cut off at the end
            assertEvents(clientFrame(.text, invalid), [.fail(1007)])
        }
        // A 16-bit length for a short payload is not minimal, but allowed.
        var frame = clientFrame(.text, Array("hi".utf8))
        frame[1] = 0x80 | 126
        frame.insert(contentsOf: [0, 2], at: 2)
        assertEvents(frame, [.text("hi")])
        assertEvents(clientFrame(.text, Array(String(repeating: "z", count: 300).utf8)), [.fail(1009)],
                     configuration: .init(maxMessageSize: 299))
    }

    func testNonASCIITextAtEveryPosition() {
        for length in 0 ... 40 {
            for scalar in ["é", "€", "😀"] {
                var text = String(repeating: "a", count: length)
                text += scalar
                text += String(repeating: "b", count: max(0, 40 - length))
                guard text.utf8.count <= 125 else { continue }
                assertEvents(clientFrame(.text, Array(text.utf8), key: keys[2]), [.text(text)])
            }
        }
    }

    func testInvalidUTF8AtEveryPositionFails1007() {
        for length in 1 ... 40 {
            for position in 0 ..< length {
                for bad in [[0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5], [0xE2, 0x82]] as [[UInt8]] {
                    var payload = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    payload.replaceSubrange(position ..< min(length, position + bad.count), with: bad)
                    assertEvents(clientFrame(.text, payload), [.fail(1007)])
                }
            }
        }
    }

    func testBinaryIsNotCheckedAsUTF8() {
        for length in [0, 1, 7, 8, 13, 125] {
            let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: 0x80 + $0 * 37) }
            assertEvents(clientFrame(.binary, payload), [.binary(payload)])
        }
    }

    func testFramesOffThePathKeepTheirRules() {
        // Unmasked, reserved bits, a control frame, binary refused, over the limit, a 16-bit length.
        assertEvents(clientFrame(.text, Array("abc".utf8), masked: false), [.fail(1002)])
        assertEvents(rawClientFrame(firstByte: 0x91, payload: Array("abc".utf8)), [.fail(1002)])
        assertEvents(rawClientFrame(firstByte: 0xC1, payload: Array("abc".utf8)), [.fail(1002)])
        assertEvents(clientFrame(.binary, [1, 2]), [.fail(1003)], configuration: .init(acceptsBinary: false))
        assertEvents(clientFrame(.text, Array("0123456789a".utf8)), [.fail(1009)], configuration: .init(maxMessageSize: 10))
        assertEvents(clientFrame(.text, Array("0123456789".utf8)), [.text("0123456789")], configuration: .init(maxMessageSize: 10))
        let medium = String(repeating: "m", count: 126)
        assertEvents(clientFrame(.text, Array(medium.utf8)), [.text(medium)])
    }

    func testWholeFramesAroundAFragmentedMessage() {
        // A whole frame inside a fragmented message is a protocol error, not a message.
        assertEvents(clientFrame(.text, "a", fin: false) + clientFrame(.text, "b"), [.fail(1002)])
        let bytes = clientFrame(.text, "one") + clientFrame(.text, "fr", fin: false) + clientFrame(.ping, [7])
            + clientFrame(.continuation, "ag") + clientFrame(.binary, [0xFF]) + clientFrame(.text, "two")
        assertEvents(bytes, [.text("one"), .sendPong([7]), .text("frag"), .binary([0xFF]), .text("two")])
    }

    func testNothingAfterAFailureInTheSameRead() {
        assertEvents(clientFrame(.text, [0xFF]) + clientFrame(.text, "after"), [.fail(1007)])
    }
}
