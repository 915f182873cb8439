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

    /// A head as the parser reads it, whose common fields are found through its index.
    private func parsed(_ fields: String) throws -> HTTPRequestHead {
        var decoder = HTTPRequestDecoder()
        Array("GET /ws/sum HTTP/1.1\r\nHost: h\r\n\(fields)\r\n".utf8).withUnsafeBytes { decoder.append($0) }
        guard case .head(let head)? = decoder.next() else { throw XCTSkip("not parsed") }
        return head
    }

    func testAParsedHeadsCookieIsReadThroughItsIndex() throws {
        XCTAssertEqual(CookieHeader.uniqueValue(of: "s", in: try parsed("cookie: a=1; s=x\r\n")), "x")
        XCTAssertEqual(CookieHeader.uniqueValue(of: "s", in: try parsed("Cookie: a=1\r\nCOOKIE: s=y\r\n")), "y",
                       "several fields are joined")
        XCTAssertNil(CookieHeader.uniqueValue(of: "s", in: try parsed("Cookie: s=1\r\nCookie: s=2\r\n")),
                     "a second one planted in another field makes both unreadable")
        XCTAssertNil(CookieHeader.uniqueValue(of: "s", in: try parsed("Cookie: s=1\r\nCookie: b\r\n")), "one field malformed")
        XCTAssertNil(CookieHeader.uniqueValue(of: "s", in: try parsed("X-Cookie: s=1\r\n")), "no Cookie field")
    }

    func testARepeatedAuthorizationOrOriginIsCountedThroughTheIndex() throws {
        let twice = try parsed("Authorization: Bearer a\r\nauthorization: Bearer b\r\nOrigin: http://h\r\nORIGIN: http://h\r\n")
        XCTAssertEqual(twice.field(.authorization).count, 2, "a sign-in reads no credential from two fields")
        XCTAssertEqual(twice.fieldCount(.origin), 2)
        XCTAssertEqual(twice.values(of: .origin), ["http://h", "http://h"])
        let once = try parsed("AUTHORIZATION: Bearer a\r\norigin: null\r\n")
        XCTAssertEqual(once.field(.authorization).count, 1)
        XCTAssertEqual(once.field(.authorization).first, "Bearer a")
        XCTAssertEqual(once.values(of: .origin), ["null"])
        XCTAssertEqual(try parsed("").field(.authorization).count, 0)
    }
}
