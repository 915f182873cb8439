import XCTest
@testable import WebSocket

/// Randomised checks with a fixed seed (reproducible): valid traffic split at
/// random points gives exactly the messages sent; garbage never crashes and
/// nothing follows a failure.
final class WebSocketProtocolMachineFuzzTests: XCTestCase {
    private struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    private let alphabet = Array("ab €κ𝄞\u{10FFFF}\u{7FF}\u{800}z")

    func testRandomFragmentedTrafficAtRandomSplitsGivesTheMessagesSent() {
        var random = SplitMix(state: 42)
        for round in 0 ..< 200 {
            var bytes: [UInt8] = []
            var expected: [RecordedEvent] = []
            for _ in 0 ..< 1 + random.below(6) {
                let length = random.below(random.below(4) == 0 ? 3000 : 40)
                let text = String((0 ..< length).map { _ in alphabet[random.below(alphabet.count)] })
                let utf8 = Array(text.utf8)
                // Cut the message's bytes anywhere (also inside characters) into fragments.
                var cuts = (0 ..< random.below(4)).map { _ in random.below(utf8.count + 1) }.sorted()
                cuts = [0] + cuts + [utf8.count]
                for index in 0 ..< cuts.count - 1 {
                    let piece = Array(utf8[cuts[index] ..< cuts[index + 1]])
                    let opcode: WebSocketOpcode = index == 0 ? .text : .continuation
                    let key = WebSocketMaskingKey(packed: UInt32(truncatingIfNeeded: random.next()))
                    let isLast = index == cuts.count - 2
                    bytes += clientFrame(opcode, piece, fin: isLast, key: key)
                    if isLast { expected.append(.text(text)) }   // delivered at the final fragment
                    if random.below(3) == 0 {
                        let ping = (0 ..< random.below(126)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                        bytes += clientFrame(.ping, ping)
                        expected.append(.sendPong(ping))
                    }
                }
            }
            var machine = WebSocketProtocolMachine()
            var events: [RecordedEvent] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + 1 + random.below(random.below(2) == 0 ? 4 : 600))
                events += feed(&machine, Array(bytes[start ..< end]))
                start = end
            }
            XCTAssertEqual(events, expected, "round \(round)")
            if events != expected { return }
        }
    }

    func testGarbageNeverCrashesAndNothingFollowsAFailure() {
        var random = SplitMix(state: 7)
        let config = WebSocketProtocolMachine.Configuration(maxMessageSize: 4096)
        var failures = 0
        for _ in 0 ..< 2000 {
            var bytes = (0 ..< random.below(300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Often start from a plausible header so the checks past the first bytes run too.
            if random.below(2) == 0, bytes.count > 2 {
                bytes[0] = [0x81, 0x01, 0x80, 0x89, 0x8A, 0x88, 0x02][random.below(7)]
                bytes[1] = 0x80 | UInt8(random.below(128))
            }
            var machine = WebSocketProtocolMachine(configuration: config)
            let events = feed(&machine, bytes, chunkSize: 1 + random.below(20))
            if let index = events.firstIndex(where: { if case .fail = $0 { return true } else { return false } }) {
                failures += 1
                XCTAssertEqual(index, events.count - 1, "events after a failure: \(events)")
                XCTAssertTrue(machine.isFinished)
                XCTAssertEqual(feed(&machine, clientFrame(.ping, "x")), [])
            }
            for case .text(let text) in events { XCTAssertNotNil(String(validating: Array(text.utf8), as: UTF8.self)) }
        }
        XCTAssertGreaterThan(failures, 500)   // the garbage really did exercise the failure paths
    }
}
