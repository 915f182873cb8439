import XCTest
@testable import WebSocket

/// The compressor, the decompressor and compressed messages through the protocol machine.
final class PerMessageDeflateTests: XCTestCase {
    /// "Hello" compressed as RFC 7692 section 7.2.3.1 shows it.
    private let helloCompressed: [UInt8] = [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]

    private func compress(_ bytes: [UInt8], with deflater: PerMessageDeflater = PerMessageDeflater()) -> [UInt8] {
        bytes.withUnsafeBytes { message in deflater.compress(message) { $0.map { Array($0) } } } ?? []
    }

    private enum Inflated: Equatable {
        case message([UInt8])
        case tooBig
        case corrupt
    }

    private func inflate(_ bytes: [UInt8], limit: Int, with inflater: PerMessageInflater = PerMessageInflater()) -> Inflated {
        bytes.withUnsafeBytes { compressed in
            inflater.inflate(compressed, limit: limit) { outcome in
                switch outcome {
                case .message(let message): return .message(Array(message))
                case .tooBig: return .tooBig
                case .corrupt: return .corrupt
                }
            }
        }
    }

    /// A client frame with RSV1 set (a compressed message's first frame).
    private func compressedFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var frame = clientFrame(opcode, payload, fin: fin)
        frame[0] |= 0x40
        return frame
    }

    private func deflateMachine(maxMessageSize: Int = 65536, inflater: PerMessageInflater = PerMessageInflater()) -> WebSocketProtocolMachine {
        WebSocketProtocolMachine(configuration: .init(maxMessageSize: maxMessageSize), inflater: inflater)
    }

    // MARK: compressor and decompressor

    func testDeflaterProducesTheRFCsBytesForHello() {
        XCTAssertEqual(compress(Array("Hello".utf8)), helloCompressed)
    }

    func testInflaterReadsTheRFCsExamples() {
        XCTAssertEqual(inflate(helloCompressed, limit: 100), .message(Array("Hello".utf8)))
        // 7.2.3.3: a block with no compression; 7.2.3.4: a block with BFINAL set.
        XCTAssertEqual(inflate([0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00], limit: 100),
                       .message(Array("Hello".utf8)))
        XCTAssertEqual(inflate([0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00], limit: 100), .message(Array("Hello".utf8)))
        XCTAssertEqual(inflate([0x00], limit: 100), .message([]))
    }

    func testRoundTripsReuseOneStreamPairWithoutCarryingContext() {
        let deflater = PerMessageDeflater()
        let inflater = PerMessageInflater()
        var generator = SystemRandomNumberGenerator()
        let json = Array(String(repeating: #"{"output":"sum","value":12345}"#, count: 400).utf8)
        let random = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for message in [json, random, [], Array("Hello".utf8), json] {
            let compressed = compress(message, with: deflater)
            // Each message inflates alone, with a fresh context: nothing refers to an earlier one.
            XCTAssertEqual(inflate(compressed, limit: 65536), .message(message))
            XCTAssertEqual(inflate(compressed, limit: 65536, with: inflater), .message(message))
        }
        XCTAssertLessThan(compress(json, with: deflater).count, json.count / 20)
    }

    func testSmallWindowDeflaterOutputInflates() {
        let text = Array(String(repeating: "abcdefghij0123456789", count: 500).utf8)
        for bits in 9...15 {
            XCTAssertEqual(inflate(compress(text, with: PerMessageDeflater(windowBits: bits)), limit: 65536), .message(text), "\(bits) bits")
        }
    }

    func testBombStopsAtTheLimitWithoutAllocatingPastIt() {
        let bomb = compress([UInt8](repeating: 0, count: 10 << 20))   // 10 MiB of zeros
        XCTAssertLessThan(bomb.count, 65536)   // small enough to pass as a message of at most 64 KiB
        let inflater = PerMessageInflater()
        XCTAssertEqual(inflate(bomb, limit: 65536, with: inflater), .tooBig)
        XCTAssertLessThanOrEqual(inflater.outputCapacity, 65536)
        // Exactly at the limit is fine, one byte more is not.
        let exact = compress([UInt8](repeating: 7, count: 5000))
        XCTAssertEqual(inflate(exact, limit: 5000), .message([UInt8](repeating: 7, count: 5000)))
        XCTAssertEqual(inflate(exact, limit: 4999), .tooBig)
        XCTAssertEqual(inflate(exact, limit: 0), .tooBig)
    }

    func testGarbageIsCorrupt() {
        XCTAssertEqual(inflate([0xFF, 0xFF, 0xFF, 0xFF, 0x12], limit: 100), .corrupt)
        XCTAssertEqual(inflate([0x07], limit: 100), .corrupt)   // reserved block type 3
    }

    // MARK: compressed messages through the protocol machine

    func testCompressedTextMessage() {
        var machine = deflateMachine()
        XCTAssertEqual(feed(&machine, compressedFrame(.text, helloCompressed)), [.text("Hello")])
        // The same machine reads an uncompressed message next: RSV1 is per message.
        XCTAssertEqual(feed(&machine, clientFrame(.text, "plain")), [.text("plain")])
        let binary = compress([1, 2, 3, 1, 2, 3, 1, 2, 3])
        XCTAssertEqual(feed(&machine, compressedFrame(.binary, binary), chunkSize: 1), [.binary([1, 2, 3, 1, 2, 3, 1, 2, 3])])
    }

    func testFragmentedCompressedMessageWithInterleavedPing() {
        // RFC 7692 7.2.3.1's two fragments: RSV1 on the first frame only.
        let bytes = compressedFrame(.text, [0xF2, 0x48, 0xCD], fin: false)
            + clientFrame(.ping, "p")
            + clientFrame(.continuation, [0xC9, 0xC9, 0x07, 0x00])
        for chunk in [nil, 1, 5] as [Int?] {
            var machine = deflateMachine()
            XCTAssertEqual(feed(&machine, bytes, chunkSize: chunk), [.sendPong(Array("p".utf8)), .text("Hello")])
        }
    }

    func testCompressionBombClosesWith1009() {
        let bomb = compress([UInt8](repeating: 0x41, count: 1 << 20))
        var machine = deflateMachine(maxMessageSize: 65536)
        XCTAssertEqual(feed(&machine, compressedFrame(.text, bomb)), [.fail(1009)])
        XCTAssertTrue(machine.isFinished)
    }

    func testCompressedMessageOverTheLimitOnTheWireClosesWith1009() {
        var machine = deflateMachine(maxMessageSize: 200)
        // Refused once the header is in (2 bytes, a 16-bit length, the key): before any payload.
        XCTAssertEqual(feed(&machine, Array(compressedFrame(.binary, [UInt8](repeating: 1, count: 300)).prefix(8))), [.fail(1009)])
    }

    func testCorruptOrNonUTF8CompressedTextClosesWith1007() {
        var corrupt = deflateMachine()
        XCTAssertEqual(feed(&corrupt, compressedFrame(.text, [0xFF, 0xFF, 0xFF, 0xFF])), [.fail(1007)])
        var badText = deflateMachine()
        XCTAssertEqual(feed(&badText, compressedFrame(.text, compress([0x48, 0xC3, 0x28, 0x48]))), [.fail(1007)])
    }

    func testRSV1MisuseClosesWith1002() {
        let misuses: [(String, [UInt8], Bool)] = [
            ("RSV1 without permessage-deflate", compressedFrame(.text, helloCompressed), false),
            ("RSV1 on a continuation frame", clientFrame(.text, "Hel", fin: false)
                + compressedFrame(.continuation, Array("lo".utf8)), true),
            ("RSV1 on a ping", compressedFrame(.ping, []), true),
            ("RSV1 on a close", compressedFrame(.close, [0x03, 0xE8]), true),
            ("RSV2", rawClientFrame(firstByte: 0x80 | 0x20 | 0x1, payload: Array("x".utf8)), true),
            ("RSV3", rawClientFrame(firstByte: 0x80 | 0x10 | 0x1, payload: Array("x".utf8)), true),
        ]
        for (name, bytes, negotiated) in misuses {
            var machine = negotiated ? deflateMachine() : WebSocketProtocolMachine()
            XCTAssertEqual(feed(&machine, bytes), [.fail(1002)], name)
        }
    }

    func testEncoderSetsRSV1ForCompressedFrames() {
        var frame: [UInt8] = []
        helloCompressed.withUnsafeBytes {
            WebSocketFrameEncoder.appendFrame(opcode: .text, compressed: true, payload: $0, to: &frame)
        }
        XCTAssertEqual(frame, [0xC1, 0x07] + helloCompressed)   // the RFC's example frame
        withUnsafeTemporaryAllocation(byteCount: 14, alignment: 1) { header in
            XCTAssertEqual(WebSocketFrameEncoder.writeHeader(opcode: .binary, compressed: true, payloadLength: 3, into: header), 2)
            XCTAssertEqual(header[0], 0xC2)
        }
    }

    // MARK: randomised (fixed seed)

    func testRandomCompressedFragmentedTrafficGivesTheMessagesSent() {
        var random = SeededGenerator(state: 11)
        let inflater = PerMessageInflater()
        let deflater = PerMessageDeflater()
        for round in 0 ..< 100 {
            var bytes: [UInt8] = []
            var expected: [RecordedEvent] = []
            for _ in 0 ..< 1 + random.below(5) {
                let text = String((0 ..< random.below(3000)).map { _ in Array("ab €κ𝄞{}\"")[random.below(9)] })
                let compressed = compress(Array(text.utf8), with: deflater)
                // Compressed bytes cut anywhere into fragments: RSV1 on the first only.
                let cuts = [0] + (0 ..< random.below(4)).map { _ in random.below(compressed.count + 1) }.sorted() + [compressed.count]
                for index in 0 ..< cuts.count - 1 {
                    let piece = Array(compressed[cuts[index] ..< cuts[index + 1]])
                    let isLast = index == cuts.count - 2
                    bytes += index == 0 ? compressedFrame(.text, piece, fin: isLast) : clientFrame(.continuation, piece, fin: isLast)
                }
                expected.append(.text(text))
            }
            var machine = deflateMachine(inflater: inflater)
            var events: [RecordedEvent] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + 1 + random.below(700))
                events += feed(&machine, Array(bytes[start ..< end]))
                start = end
            }
            XCTAssertEqual(events, expected, "round \(round)")
            if events != expected { return }
        }
    }

    func testRandomCompressedGarbageNeverCrashesAndStaysWithinTheLimit() {
        var random = SeededGenerator(state: 5)
        let inflater = PerMessageInflater()
        var outcomes = Set<String>()
        for _ in 0 ..< 2000 {
            var payload = (0 ..< random.below(200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Often a valid start (a fixed-Huffman block header) so inflating goes further.
            if random.below(2) == 0, !payload.isEmpty { payload[0] = payload[0] & 0xF8 | 0x02 }
            var machine = deflateMachine(maxMessageSize: 1024, inflater: inflater)
            let events = feed(&machine, compressedFrame(random.below(2) == 0 ? .text : .binary, payload))
            XCTAssertEqual(events.count, 1)
            switch events.first {
            case .text(let text): XCTAssertLessThanOrEqual(text.utf8.count, 1024); outcomes.insert("text")
            case .binary(let bytes): XCTAssertLessThanOrEqual(bytes.count, 1024); outcomes.insert("binary")
            case .fail(let code): XCTAssertTrue([1007, 1009].contains(code), "\(code)"); outcomes.insert("fail \(code)")
            default: XCTFail("unexpected \(events)")
            }
            XCTAssertLessThanOrEqual(inflater.outputCapacity, 1024)
        }
        // The garbage reached every outcome, so the checks above all ran.
        XCTAssertTrue(outcomes.isSuperset(of: ["binary", "fail 1007"]), "\(outcomes)")
    }
}

/// A small reproducible generator (SplitMix64) for the randomised tests.
private struct SeededGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
