import Foundation
import XCTest
@testable import WebSocket

/// The accept value's digest (OpenSSL's SHA-1 on a stack context) checked against a plain
/// SHA-1 written here from FIPS 180-4, over many keys: the fast path against a slow one.
final class AcceptValueReferenceTests: XCTestCase {
    func testAcceptValueMatchesAReferenceSHA1OverManyKeys() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let key = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
            let expected = Data(Self.referenceSHA1(Array((key + WebSocketHandshake.guid).utf8))).base64EncodedString()
            XCTAssertEqual(WebSocketHandshake.acceptValue(forKey: key), expected, "key \(key)")
        }
    }

    func testReferenceSHA1OfTheEmptyInputAndOfABC() {
        // FIPS 180-4's examples, so the reference itself is known good.
        XCTAssertEqual(Self.hex(Self.referenceSHA1([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(Self.hex(Self.referenceSHA1(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// SHA-1 the slow, obvious way: pad, then 80 rounds per 64-byte block.
    private static func referenceSHA1(_ message: [UInt8]) -> [UInt8] {
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) * 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64($0))) }
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value << count | value >> (32 - count) }
        for block in stride(from: 0, to: padded.count, by: 64) {
            var words = (0..<16).map { index in
                padded[block + 4 * index..<block + 4 * index + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            }
            for index in 16..<80 {
                words.append(rotate(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1))
            }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (mixed, constant): (UInt32, UInt32) = switch index {
                case 0..<20: (b & c | ~b & d, 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (b & c | b & d | c & d, 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let next = rotate(a, 5) &+ mixed &+ e &+ constant &+ words[index]
                (a, b, c, d, e) = (next, a, rotate(b, 30), c, d)
            }
            state = zip(state, [a, b, c, d, e]).map { $0 &+ $1 }
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }
}
