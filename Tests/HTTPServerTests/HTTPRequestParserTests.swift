@testable import HTTPServer
import XCTest

/// The request-head parser on its own: its first pass skips eight bytes at a time while none
/// is a control character, and its second reads the lines where the first noted their ends.
/// These put the bytes that matter at every place of a head, across word boundaries.
final class HTTPRequestParserTests: XCTestCase {
    private let head = Array("GET /some/path HTTP/1.1\r\nHost: example.org\r\nX-Long-Header-Name: a longer value here".utf8)

    private func parse(_ bytes: [UInt8], maxHeaderCount: Int = 100) -> Result<HTTPRequestHead, HTTPParseError> {
        HTTPRequestParser.parse(bytes[...], maxHeaderCount: maxHeaderCount)
    }

    private func isBadRequest(_ result: Result<HTTPRequestHead, HTTPParseError>) -> Bool {
        if case .failure(.badRequest) = result { return true }
        return false
    }

    func testTheHeadParses() throws {
        let request = try parse(head).get()
        XCTAssertEqual(request.path, "/some/path")
        XCTAssertEqual(request.header("host"), "example.org")
        XCTAssertEqual(request.header("x-long-header-name"), "a longer value here")
        XCTAssertEqual(request.headers.count, 2)
    }

    /// A parsed head keeps its fields' bytes with the colons and spaces between them; one
    /// made from names and values has none: the two are equal when names and values are, and
    /// any change of a name's case or a value's byte tells them apart.
    func testParsedAndMadeHeadsAreEqualByTheirNamesAndValues() throws {
        let parsed = try parse(Array("GET / HTTP/1.1\r\nHost:  h \r\nX-A:\tone two\r\nx-b:".utf8)).get()
        let made = HTTPRequestHead(method: "GET", target: "/", headers: [("Host", "h"), ("X-A", "one two"), ("x-b", "")])
        XCTAssertEqual(parsed, made)
        XCTAssertEqual(parsed.headers.map(\.value), ["h", "one two", ""])
        XCTAssertNotEqual(parsed, HTTPRequestHead(method: "GET", target: "/", headers: [("Host", "h"), ("x-a", "one two"), ("x-b", "")]))
        XCTAssertNotEqual(parsed, HTTPRequestHead(method: "GET", target: "/", headers: [("Host", "h"), ("X-A", "one twO"), ("x-b", "")]))
        XCTAssertNotEqual(parsed, HTTPRequestHead(method: "GET", target: "/", headers: [("Host", "h"), ("X-A", "one two")]))
        var changed = parsed
        changed.headers = [("Host", "h"), ("X-A", "one two"), ("x-b", "!")]
        XCTAssertNotEqual(parsed, changed)
        XCTAssertEqual(changed.header("X-B"), "!")
    }

    func testAControlCharacterAtAnyPlaceIsRefused() {
        for byte: UInt8 in [0x00, 0x01, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F] {
            for place in 0...head.count {
                var bytes = head
                bytes.insert(byte, at: place)
                XCTAssertTrue(isBadRequest(parse(bytes)), "byte \(byte) at \(place)")
            }
        }
    }

    func testATabInAValueAtAnyPlaceIsKept() throws {
        let value = Array("a longer value here".utf8)
        let valueStart = head.count - value.count
        for place in 1..<value.count {
            var bytes = head
            bytes.insert(0x09, at: valueStart + place)
            var expected = value
            expected.insert(0x09, at: place)
            XCTAssertEqual(try parse(bytes).get().header("x-long-header-name"), String(decoding: expected, as: UTF8.self))
        }
    }

    func testHeaderNamesTakeExactlyTheTokenCharacters() {
        // RFC 9110 §5.6.2: tchar is a letter, a digit or one of these.
        let marks = Set("!#$%&'*+-.^_`|~".utf8)
        for byte: UInt8 in 0x21...0x7E where byte != UInt8(ascii: ":") {
            let isToken = marks.contains(byte) || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                || (0x61...0x7A).contains(byte)
            let bytes = Array("GET / HTTP/1.1\r\nHost: h\r\nX-Long".utf8) + [byte] + Array("Name: v".utf8)
            switch parse(bytes) {
            case .success(let request):
                XCTAssertTrue(isToken, "byte \(byte) was taken")
                XCTAssertEqual(request.headers.count, 2)
            case .failure(let error):
                XCTAssertFalse(isToken, "byte \(byte) was refused: \(error)")
            }
        }
    }

    func testTheHeaderCountLimitIsExact() {
        for limit in 1...12 {
            let lines = (1..<limit).map { "X-Field-\($0): value \($0)\r\n" }.joined()
            let atLimit = Array("GET / HTTP/1.1\r\n\(lines)Host: h".utf8)
            XCTAssertEqual(try parse(atLimit, maxHeaderCount: limit).get().headers.count, limit)
            XCTAssertEqual(parse(atLimit, maxHeaderCount: limit - 1), .failure(.tooManyHeaders))
        }
        XCTAssertEqual(parse(Array("GET / HTTP/1.0".utf8), maxHeaderCount: 0).map(\.headers.count), .success(0))
    }

    /// Common names are handed out as literals: a name in either of their two spellings, in
    /// any other case or one byte off is the bytes sent.
    func testHeaderNamesAreTheBytesSentWhetherCommonOrNot() throws {
        let sent = CommonHeaderName.allCases.flatMap { [$0.canonicalString, $0.lowercasedString] }
            + ["HOST", "Sec-Websocket-Key", "Hosts", "Hos", "X-Forwarded-Fox", "Origim"]
        for name in sent {
            // Framing headers need values they accept (and chunked needs 1.1, so a Host beside).
            let value = switch name.lowercased() {
            case "content-length": "0"
            case "transfer-encoding": "chunked"
            default: "v"
            }
            let version = value == "chunked" ? "1.1\r\nHost: h" : "1.0"  // 1.0: no Host needed beside a Host sent
            let bytes = Array("GET / HTTP/\(version)\r\n\(name): \(value)".utf8)
            XCTAssertEqual(try parse(bytes).get().headers.last?.name, name)
        }
    }
}

