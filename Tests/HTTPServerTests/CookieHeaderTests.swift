import XCTest
@testable import HTTPServer

/// The `Cookie` header read strictly (RFC 6265 §4.2.1): what a browser sends is read, anything
/// that could mean two things names no cookie at all.
final class CookieHeaderTests: XCTestCase {
    func testABrowsersHeaderIsRead() throws {
        let header = try XCTUnwrap(CookieHeader(parsing: #"theme=dark; rxlive-session=AbC_-123; quoted="x1""#))
        XCTAssertEqual(header.pairs.map(\.name), ["theme", "rxlive-session", "quoted"])
        XCTAssertEqual(header.uniqueValue(of: "rxlive-session"), "AbC_-123")
        XCTAssertEqual(header.uniqueValue(of: "quoted"), "x1", "the quotes are not part of the value")
        XCTAssertEqual(header.uniqueValue(of: "empty"), nil)
        XCTAssertEqual(CookieHeader(parsing: "a=")?.uniqueValue(of: "a"), "", "an empty value is a value")
    }

    func testMalformedHeadersNameNoCookie() {
        for text in ["a=1;b=2", "a=1;  b=2", "a=1; ", "=1", "a", "a b=1", "a=1 2", "a=\"1", "a=1\"", "a=1,b=2",
                     "a=\\", "a=é", "a=1; ; b=2", "", "a=1\tb"] {
            XCTAssertNil(CookieHeader(parsing: text), text.debugDescription)
        }
    }

    func testARepeatedNameHasNoUniqueValue() throws {
        let header = try XCTUnwrap(CookieHeader(parsing: "rxlive-session=one; x=1; rxlive-session=two"))
        XCTAssertNil(header.uniqueValue(of: "rxlive-session"), "a planted second cookie makes both unreadable")
        XCTAssertEqual(header.uniqueValue(of: "x"), "1")
    }

    func testSizeAndCountLimits() {
        let long = "a=" + String(repeating: "x", count: CookieHeader.maxBytes - 2)
        XCTAssertNotNil(CookieHeader(parsing: long))
        XCTAssertNil(CookieHeader(parsing: long + "x"))
        let many = (0..<CookieHeader.maxPairs).map { "c\($0)=1" }
        XCTAssertEqual(CookieHeader(parsing: many.joined(separator: "; "))?.pairs.count, CookieHeader.maxPairs)
        XCTAssertNil(CookieHeader(parsing: (many + ["one=more"]).joined(separator: "; ")))
    }

    func testSeveralFieldsOfARequestAreJoined() throws {
        let head = HTTPRequestHead(method: "GET", target: "/", headers: [("Cookie", "a=1"), ("Host", "h"), ("cookie", "b=2")])
        let header = try XCTUnwrap(CookieHeader(head))
        XCTAssertEqual(header.pairs.map(\.value), ["1", "2"])
        XCTAssertNil(CookieHeader(HTTPRequestHead(method: "GET", target: "/", headers: [("Host", "h")])), "no Cookie field")
    }
}
