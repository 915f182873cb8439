@testable import HTTPServer
import XCTest

final class RequestPathTests: XCTestCase {
    func testPlainPathsDecodeToSegments() {
        XCTAssertEqual(RequestPath.check("/"), .segments([]))
        XCTAssertEqual(RequestPath.check("/a/b.css"), .segments(["a", "b.css"]))
        XCTAssertEqual(RequestPath.check("//a///b"), .segments(["a", "b"]))
        XCTAssertEqual(RequestPath.check("/caf%C3%A9%20x"), .segments(["café x"]))
    }

    func testTraversalAndEncodedSeparatorsAreRefused() {
        for path in ["/..", "/../etc/passwd", "/a/../../b", "/.", "/%2e%2e/x", "/%2E%2E/x", "/a%2f..%2fb", "/%2Fetc",
                     "/a%5cb", "/a\\b", "/..\\x", "/.git/config", "/.env"] {
            XCTAssertEqual(RequestPath.check(path), .refused, path)
        }
    }

    func testMalformedPathsAreRejected() {
        for path in ["/%00", "/a%00.html", "/%zz", "/%4", "/%", "/%ff", "/a%0a", "relative", "/a#frag"] {
            XCTAssertEqual(RequestPath.check(path), .malformed, path)
        }
    }

    func testNormalFormDecodesOnceAndDropsEmptySegments() {
        XCTAssertEqual(RequestPath.normalise("/"), .path("/"))
        XCTAssertEqual(RequestPath.normalise("/ws/login"), .path("/ws/login"))
        XCTAssertEqual(RequestPath.normalise("//dashboard"), .path("/dashboard"))
        XCTAssertEqual(RequestPath.normalise("/%64ashboard/index.html"), .path("/dashboard/index.html"))
        XCTAssertEqual(RequestPath.normalise("/dashboard/"), .path("/dashboard"))
        XCTAssertEqual(RequestPath.normalise("///"), .path("/"))
        // Decoded once: an escaped percent stays a percent, not a second escape.
        XCTAssertEqual(RequestPath.normalise("/%2564ashboard"), .path("/%64ashboard"))
        XCTAssertEqual(RequestPath.normalise("/%2e%2e/x"), .refused)
        XCTAssertEqual(RequestPath.normalise("/a/.hidden"), .refused)
        XCTAssertEqual(RequestPath.normalise("/%zz"), .malformed)
        XCTAssertEqual(RequestPath.normalise("*"), .malformed)
    }

    func testTheFastPathAgreesWithDecoding() {
        // Random paths over the characters that matter to either path; a fixed seed.
        let alphabet: [String] = ["/", "/", ".", "a", "b", "%", "2", "e", "F", "\\", "#", " ", "~", "é"]
        var state: UInt64 = 35
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407  // Knuth's MMIX LCG
            return Int(state >> 33)
        }
        for _ in 0..<50_000 {
            let length = next() % 9
            let path = (next() % 8 == 0 ? "" : "/") + (0..<length).map { _ in alphabet[next() % alphabet.count] }.joined()
            XCTAssertEqual(RequestPath.normalise(path), RequestPath.normaliseByDecoding(path), path)
        }
    }

    func testHTTPDateRoundTrip() {
        XCTAssertEqual(HTTPDate.format(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        XCTAssertNil(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT"))
    }

    func testMediaTypes() {
        XCTAssertEqual(MediaTypes.forFileName("index.html"), "text/html; charset=utf-8")
        XCTAssertEqual(MediaTypes.forFileName("app.JS"), "text/javascript; charset=utf-8")
        XCTAssertEqual(MediaTypes.forFileName("README"), "application/octet-stream")
    }
}
