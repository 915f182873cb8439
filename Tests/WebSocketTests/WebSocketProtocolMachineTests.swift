import XCTest
@testable import WebSocket

final class WebSocketProtocolMachineTests: XCTestCase {
    // MARK: messages

    func testSingleTextFrameGivesOneTextMessage() {
        assertEvents(clientFrame(.text, "hello, wörld"), [.text("hello, wörld")])
    }

    func testEmptyTextMessage() {
        assertEvents(clientFrame(.text, ""), [.text("")])
    }

    func testBinaryMessageIsDeliveredWhenAccepted() {
        assertEvents(clientFrame(.binary, [0, 1, 2, 0xFF]), [.binary([0, 1, 2, 0xFF])])
    }

    func testBinaryMessageFailsWith1003AtItsHeaderWhenNotAccepted() {
        let config = WebSocketProtocolMachine.Configuration(acceptsBinary: false)
        var machine = WebSocketProtocolMachine(configuration: config)
        // Only the two first header bytes: the failure must not wait for the payload.
        let events = feed(&machine, Array(clientFrame(.binary, [1, 2, 3]).prefix(2)))
        XCTAssertEqual(events, [.fail(1003)])
        XCTAssertTrue(machine.isFinished)
    }

    func testSixteenBitAndSixtyFourBitLengths() {
        let medium = String(repeating: "a", count: 300)          // 126 + 16-bit length
        let large = String(repeating: "b", count: 70_000)        // 127 + 64-bit length
        XCTAssertEqual(clientFrame(.text, medium)[1] & 0x7F, 126)
        XCTAssertEqual(clientFrame(.text, large)[1] & 0x7F, 127)
        assertEvents(clientFrame(.text, medium), [.text(medium)])
        let config = WebSocketProtocolMachine.Configuration(maxMessageSize: 100_000)
        assertEvents(clientFrame(.text, large), [.text(large)], configuration: config)
    }

    func testSeveralMessagesInOneRead() {
        let bytes = clientFrame(.text, "one") + clientFrame(.text, "two") + clientFrame(.binary, [9])
        assertEvents(bytes, [.text("one"), .text("two"), .binary([9])])
    }

    func testMachineIsReusableAfterALargeMessage() {
        let big = String(repeating: "x", count: 10_000)
        assertEvents(clientFrame(.text, big) + clientFrame(.text, "small"), [.text(big), .text("small")])
    }

    // MARK: fragmentation

    func testFragmentedTextWithInterleavedControlFrames() {
        let bytes = clientFrame(.text, "Hel", fin: false)
            + clientFrame(.ping, "p1")
            + clientFrame(.continuation, "lo ", fin: false)
            + clientFrame(.pong, "p2")
            + clientFrame(.continuation, "there")
        assertEvents(bytes, [.sendPong(Array("p1".utf8)), .pongReceived(Array("p2".utf8)), .text("Hello there")])
    }

    func testFragmentedBinaryWithEmptyFragments() {
        let bytes = clientFrame(.binary, [], fin: false) + clientFrame(.continuation, [1, 2], fin: false)
            + clientFrame(.continuation, [], fin: false) + clientFrame(.continuation, [3])
        assertEvents(bytes, [.binary([1, 2, 3])])
    }

    func testUTF8CharacterSplitAcrossFragmentsIsValid() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]   // "€"
        let bytes = clientFrame(.text, [0x41, euro[0]], fin: false)
            + clientFrame(.continuation, [euro[1]], fin: false)
            + clientFrame(.continuation, [euro[2], 0x42])
        assertEvents(bytes, [.text("A€B")])
    }

    func testContinuationWithoutStartFails1002() {
        assertEvents(clientFrame(.continuation, "x"), [.fail(1002)])
    }

    func testNewDataFrameWhileFragmentedFails1002() {
        assertEvents(clientFrame(.text, "a", fin: false) + clientFrame(.text, "b"), [.fail(1002)])
        assertEvents(clientFrame(.binary, [1], fin: false) + clientFrame(.binary, [2]), [.fail(1002)])
    }

    func testFragmentedControlFrameFails1002() {
        assertEvents(clientFrame(.ping, "x", fin: false), [.fail(1002)])
        assertEvents(clientFrame(.close, [0x03, 0xE8], fin: false), [.fail(1002)])
    }

    // MARK: header rules

    func testReservedBitsFail1002() {
        for bit: UInt8 in [0x40, 0x20, 0x10] {
            assertEvents(rawClientFrame(firstByte: 0x81 | bit, payload: Array("x".utf8)), [.fail(1002)])
        }
    }

    func testReservedOpcodesFail1002() {
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            assertEvents(rawClientFrame(firstByte: 0x80 | opcode, payload: []), [.fail(1002)])
        }
    }

    func testUnmaskedClientFrameFails1002() {
        assertEvents(clientFrame(.text, Array("hi".utf8), masked: false), [.fail(1002)])
    }

    func testUnmaskedFramesAreReadWhenMaskingIsNotRequired() {
        let config = WebSocketProtocolMachine.Configuration(requiresMasking: false)
        assertEvents(clientFrame(.text, Array("hi".utf8), masked: false), [.text("hi")], configuration: config)
    }

    func testControlPayloadOver125Fails1002() {
        assertEvents(clientFrame(.ping, [UInt8](repeating: 7, count: 126)), [.fail(1002)])
        assertEvents(clientFrame(.ping, [UInt8](repeating: 7, count: 125)), [.sendPong([UInt8](repeating: 7, count: 125))])
    }

    func testSixtyFourBitLengthWithTopBitSetFails1002() {
        var frame: [UInt8] = [0x81, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 1]
        frame += [1, 2, 3, 4]   // masking key
        assertEvents(frame, [.fail(1002)])
    }

    // MARK: limits

    func testMessageOverLimitFails1009AtTheHeader() {
        let config = WebSocketProtocolMachine.Configuration(maxMessageSize: 10)
        assertEvents(clientFrame(.text, "0123456789"), [.text("0123456789")], configuration: config)
        // 16-bit length: fails once the header is complete, before any payload byte.
        var machine = WebSocketProtocolMachine(configuration: Configuration(maxMessageSize: 100))
        let header = Array(clientFrame(.text, String(repeating: "z", count: 200)).prefix(8))
        XCTAssertEqual(feed(&machine, header), [.fail(1009)])
    }

    func testDefaultLimitIs65536() {
        let exact = String(repeating: "q", count: 65536)
        assertEvents(clientFrame(.text, exact), [.text(exact)])
        assertEvents(clientFrame(.text, exact + "!"), [.fail(1009)])
    }

    func testFragmentsTogetherOverLimitFail1009() {
        let config = WebSocketProtocolMachine.Configuration(maxMessageSize: 8)
        let bytes = clientFrame(.text, "12345", fin: false) + clientFrame(.continuation, "6789")
        assertEvents(bytes, [.fail(1009)], configuration: config)
    }

    // MARK: UTF-8

    func testInvalidUTF8InTextFails1007() {
        assertEvents(clientFrame(.text, [0x41, 0xC0, 0x80]), [.fail(1007)])       // overlong NUL
        assertEvents(clientFrame(.text, [0xED, 0xA0, 0x80]), [.fail(1007)])       // surrogate
        assertEvents(clientFrame(.text, [0xF4, 0x90, 0x80, 0x80]), [.fail(1007)]) // > U+10FFFF
    }

    func testTruncatedSequenceAtEndOfMessageFails1007() {
        assertEvents(clientFrame(.text, [0x41, 0xE2, 0x82]), [.fail(1007)])
        let fragmented = clientFrame(.text, [0x41, 0xE2], fin: false) + clientFrame(.continuation, [0x82])
        assertEvents(fragmented, [.fail(1007)])
    }

    func testInvalidUTF8FailsFastInTheFirstFragment() {
        // The continuation that would complete the message is never sent.
        var machine = WebSocketProtocolMachine()
        let events = feed(&machine, clientFrame(.text, [0x41, 0xFF], fin: false))
        XCTAssertEqual(events, [.fail(1007)])
    }

    func testInvalidUTF8FailsFastInsideAFrame() {
        // Header and the first bad bytes of a 1000-byte frame: the rest never comes.
        var payload = [UInt8](repeating: 0x61, count: 1000)
        payload[10] = 0xC1
        var machine = WebSocketProtocolMachine()
        let events = feed(&machine, Array(clientFrame(.text, payload).prefix(8 + 11)), chunkSize: 1)
        XCTAssertEqual(events, [.fail(1007)])
    }

    func testBinaryPayloadIsNotCheckedAsUTF8() {
        assertEvents(clientFrame(.binary, [0xFF, 0xC0]), [.binary([0xFF, 0xC0])])
    }

    // MARK: ping / pong

    func testPingGivesSendPongWithSamePayload() {
        assertEvents(clientFrame(.ping, [1, 2, 3]), [.sendPong([1, 2, 3])])
        assertEvents(clientFrame(.ping, []), [.sendPong([])])
    }

    func testPongIsReported() {
        assertEvents(clientFrame(.pong, [4]), [.pongReceived([4])])
    }

    // MARK: close

    func testCloseWithCodeAndReason() {
        assertEvents(closeFrame(code: 1000, reason: Array("bye ✓".utf8)), [.peerClosed(code: 1000, reason: "bye ✓")])
    }

    func testCloseWithoutPayloadHasNoCode() {
        assertEvents(clientFrame(.close, []), [.peerClosed(code: nil, reason: "")])
    }

    func testCloseWithOneBytePayloadFails1002() {
        assertEvents(clientFrame(.close, [0x03]), [.fail(1002)])
    }

    func testCloseWithInvalidCodesFails1002() {
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] {
            assertEvents(closeFrame(code: code), [.fail(1002)])
        }
    }

    func testCloseWithValidCodesIsReported() {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999] {
            assertEvents(closeFrame(code: code), [.peerClosed(code: code, reason: "")])
        }
    }

    func testCloseWithInvalidUTF8ReasonFails1007() {
        assertEvents(closeFrame(code: 1000, reason: [0x61, 0xCE, 0xBA, 0xE1, 0xBD]), [.fail(1007)])
    }

    func testNothingIsReportedAfterCloseOrFailure() {
        assertEvents(closeFrame(code: 1000) + clientFrame(.text, "late"), [.peerClosed(code: 1000, reason: "")])
        assertEvents(clientFrame(.continuation, "x") + clientFrame(.text, "late"), [.fail(1002)])
        var machine = WebSocketProtocolMachine()
        _ = feed(&machine, closeFrame(code: 1001))
        XCTAssertTrue(machine.isFinished)
        XCTAssertEqual(feed(&machine, clientFrame(.ping, "x")), [])
    }

    func testCloseInsideAFragmentedMessageIsReported() {
        let bytes = clientFrame(.text, "part", fin: false) + closeFrame(code: 1000)
        assertEvents(bytes, [.peerClosed(code: 1000, reason: "")])
    }

    func testIsInsideMessageTracksFragments() {
        var machine = WebSocketProtocolMachine()
        _ = feed(&machine, clientFrame(.text, "a", fin: false))
        XCTAssertTrue(machine.isInsideMessage)
        _ = feed(&machine, clientFrame(.continuation, "b"))
        XCTAssertFalse(machine.isInsideMessage)
    }

    /// A control frame's payload split over reads waits after the message being assembled
    /// (between messages, in a buffer of its own) and is taken off when the frame ends: the
    /// message goes on intact, and an idle machine keeps no buffer.
    func testASplitControlPayloadWaitsInTheMessageBufferAndLeavesNothingBehind() {
        var machine = WebSocketProtocolMachine()
        let ping = clientFrame(.ping, [7, 8, 9, 10])
        XCTAssertEqual(feed(&machine, Array(ping[..<8])), [])
        XCTAssertEqual(Array(machine.message), [7, 8], "the two payload bytes read so far, unmasked")
        XCTAssertEqual(feed(&machine, Array(ping[8...])), [.sendPong([7, 8, 9, 10])])
        XCTAssertEqual(machine.message.capacity, 0, "no buffer kept between messages")

        _ = feed(&machine, clientFrame(.text, "Hel", fin: false))
        let pong = clientFrame(.pong, [1, 2, 3])
        XCTAssertEqual(feed(&machine, Array(pong[..<7])), [])
        XCTAssertEqual(Array(machine.message), Array("Hel".utf8) + [1], "the payload after the message's bytes")
        XCTAssertEqual(feed(&machine, Array(pong[7...])), [.pongReceived([1, 2, 3])])
        XCTAssertEqual(Array(machine.message), Array("Hel".utf8))
        XCTAssertEqual(feed(&machine, clientFrame(.continuation, "lo")), [.text("Hello")])
        XCTAssertEqual(machine.message.capacity, 0)
    }

    private typealias Configuration = WebSocketProtocolMachine.Configuration
}
