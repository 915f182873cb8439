import WebSocket
import XCTest

/// The byte scan of `ASCIITokenList` gives what splitting, trimming and lowercasing give.
final class ASCIITokenListTests: XCTestCase {
    private func scan(_ value: String, _ token: String) -> Bool? {
        var value = value, token = token
        return value.withUTF8 { value in token.withUTF8 { ASCIITokenList.contains(value, token: $0) } }
    }

    private func reference(_ value: String, _ token: String) -> Bool {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return value.split(separator: ",").contains { element in
            String(element.drop(while: isSpace).reversed().drop(while: isSpace).reversed()).lowercased() == token.lowercased()
        }
    }

    func testTheScanAgreesWithSplittingAndLowercasing() {
        let values = ["Upgrade", "keep-alive, Upgrade", "keep-alive,upgrade", " \tUPGRADE\t ", "upgrade2", "up grade",
                      ",,upgrade,,", "", ",", "keep-alive", "Upgrade, keep-alive", "xupgrade", "upgradex, upgrade",
                      "websocket", "WebSocket", "web socket", "websocket, h2c", "close", "Close ,keep-alive",
                      "h2c,", ",h2c", "a, b ,\tclose\t", "keep-alive,, close", "up,grade"]
        for value in values {
            for token in ["upgrade", "Upgrade", "websocket", "close", "keep-alive", "h2c"] {
                XCTAssertEqual(scan(value, token), reference(value, token), "\(value) / \(token)")
            }
        }
    }

    func testEmptyTokensNeverMatch() {
        XCTAssertEqual(scan("a,,b", ""), false)
        XCTAssertEqual(scan("", ""), false)
    }

    func testNonASCIIIsLeftToUnicodeRules() {
        XCTAssertNil(scan("websoc\u{212A}et", "websocket"))  // the Kelvin sign lowercases to "k"
        XCTAssertNil(scan("upgrade", "upgrad\u{E9}"))
        // Anywhere in the value, before or after an element that matches.
        XCTAssertNil(scan("upgrade, caf\u{E9}", "upgrade"))
        XCTAssertNil(scan("caf\u{E9}, upgrade", "upgrade"))
        XCTAssertNil(scan("\u{E9}", "upgrade"))
        XCTAssertTrue(WebSocketHandshake.headerValue("WEBSOC\u{212A}ET", containsToken: "websocket"))
        XCTAssertTrue(WebSocketHandshake.headerValue("keep-alive, WebSocket", containsToken: "websocket"))
        XCTAssertFalse(WebSocketHandshake.headerValue("keep-alive, WebSockets", containsToken: "websocket"))
    }

    func testLowercaseFoldsOnlyASCIILetters() {
        for byte in UInt8.min...UInt8.max {
            let expected = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            XCTAssertEqual(ASCIITokenList.lowercase(byte), expected)
        }
    }
}

/// The byte scan against splitting and lowercasing, on random values over an alphabet
/// that makes near misses (case, spaces, commas, a non-ASCII letter) common.
final class ASCIITokenListFuzzTests: XCTestCase {
    func testRandomValuesAgreeWithSplittingAndLowercasing() {
        let pieces = ["upgrade", "UpGrade", "websocket", "up", "grade", ",", ",", " ", "\t", "x", "keep-alive", "\u{E9}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            var value = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            var token = ["upgrade", "websocket", "up", "", "Grade"].randomElement(using: &generator)!
            let scanned = value.withUTF8 { value in token.withUTF8 { ASCIITokenList.contains(value, token: $0) } }
            if value.utf8.contains(where: { $0 >= 0x80 }) {
                XCTAssertNil(scanned, "\(value) / \(token)")
                continue
            }
            let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            let expected = !token.isEmpty && value.split(separator: ",", omittingEmptySubsequences: false).contains { element in
                String(element.drop(while: isSpace).reversed().drop(while: isSpace).reversed()).lowercased() == token.lowercased()
            }
            XCTAssertEqual(scanned, expected, "\(value) / \(token)")
        }
    }
}
