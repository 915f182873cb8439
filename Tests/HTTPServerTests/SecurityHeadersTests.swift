import EventLoop
@testable import HTTPServer
import NetworkTestSupport
import XCTest

/// The security headers: which response gets which, the page's WebSocket origin in the
/// policy, HSTS only over TLS or from a trusted proxy, and an app's own policy.
final class SecurityHeadersTests: XCTestCase {
    private func fields(_ headers: SecurityHeaders = .strict, html: Bool, secure: Bool, host: String?) -> [String: String] {
        Dictionary(uniqueKeysWithValues: headers.fields(html: html, secure: secure, host: host).map { ($0.name, $0.value) })
    }

    func testAPageGetsEveryHeaderAndHSTSOnlyOverTLS() {
        let plain = fields(html: true, secure: false, host: "example.org:8080")
        XCTAssertEqual(plain["Content-Security-Policy"],
                       "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                       + "connect-src ws://example.org:8080; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
        XCTAssertEqual(plain["Referrer-Policy"], "no-referrer")
        XCTAssertEqual(plain["Cross-Origin-Opener-Policy"], "same-origin")
        XCTAssertEqual(plain["X-Frame-Options"], "DENY")
        XCTAssertNil(plain["Strict-Transport-Security"])
        let secure = fields(html: true, secure: true, host: "example.org")
        XCTAssertEqual(secure["Strict-Transport-Security"], "max-age=63072000")
        XCTAssertTrue(secure["Content-Security-Policy"]!.contains("connect-src wss://example.org;"))
    }

    func testAResourceGetsHSTSAloneAndOnlyOverTLS() {
        XCTAssertEqual(fields(html: false, secure: true, host: "a"), ["Strict-Transport-Security": "max-age=63072000"])
        XCTAssertEqual(fields(html: false, secure: false, host: "a"), [:])
    }

    func testAHostThatCouldEndASourceIsNotWrittenIntoThePolicy() {
        for host in ["evil.test; script-src *", "a,b", "a b", "", "a\"b"] {
            let policy = fields(html: true, secure: false, host: host)["Content-Security-Policy"]!
            XCTAssertTrue(policy.contains("connect-src 'self';"), "\(host): \(policy)")
        }
        XCTAssertTrue(fields(html: true, secure: false, host: nil)["Content-Security-Policy"]!.contains("connect-src 'self';"))
        XCTAssertTrue(fields(html: true, secure: false, host: "[::1]:80")["Content-Security-Policy"]!.contains("connect-src ws://[::1]:80;"))
    }

    func testAnAppChangesADirectiveOrLeavesHeadersOut() {
        var headers = SecurityHeaders.strict
        headers.contentSecurityPolicy = ContentSecurityPolicy.strict
            .setting("connect-src", to: [ContentSecurityPolicy.pageWebSocketOrigin, "https://api.example.org"])
            .setting("upgrade-insecure-requests", to: [])
        headers.referrerPolicy = "strict-origin"
        headers.frameOptions = nil
        let changed = fields(headers, html: true, secure: false, host: "h")
        XCTAssertTrue(changed["Content-Security-Policy"]!.contains("connect-src ws://h https://api.example.org;"))
        XCTAssertTrue(changed["Content-Security-Policy"]!.hasSuffix("frame-ancestors 'none'; upgrade-insecure-requests"))
        XCTAssertEqual(changed["Referrer-Policy"], "strict-origin")
        XCTAssertNil(changed["X-Frame-Options"])
        XCTAssertEqual(fields(.none, html: true, secure: true, host: "h"), [:])
    }

    /// Through a real server: files and routes that are HTML get the page's headers, others not;
    /// a trusted proxy's `X-Forwarded-Proto: https` earns HSTS, anyone else's does not.
    func testTheServerAddsThemToHTMLResponsesAndTrustsOnlyItsProxiesForHTTPS() throws {
        let harness = try ServerHarness { $0.trustedProxies = ["127.0.0.1"] }
        defer { XCTAssertTrue(harness.shutdown()) }
        let server = harness.server
        try harness.runner.sync {
            server.value?.addRoute("/made.html") { _ in
                HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: "<p>made</p>")
            }
        }
        let client = try harness.client()
        let page = try XCTUnwrap(client.request("/"))
        XCTAssertEqual(page.headers["referrer-policy"], "no-referrer")
        XCTAssertEqual(page.headers["x-frame-options"], "DENY")
        XCTAssertTrue(try XCTUnwrap(page.headers["content-security-policy"]).contains("connect-src ws://127.0.0.1;"))
        XCTAssertNil(page.headers["strict-transport-security"])
        XCTAssertNotNil(try XCTUnwrap(client.request("/made.html")).headers["content-security-policy"])
        XCTAssertNil(try XCTUnwrap(client.request("/style.css")).headers["content-security-policy"])
        let proxied = try XCTUnwrap(client.request("/", headers: ["X-Forwarded-Proto: https"]))
        XCTAssertEqual(proxied.headers["strict-transport-security"], "max-age=63072000")
        XCTAssertTrue(try XCTUnwrap(proxied.headers["content-security-policy"]).contains("connect-src wss://127.0.0.1;"))

        let untrusting = try ServerHarness()
        defer { XCTAssertTrue(untrusting.shutdown()) }
        let stranger = try XCTUnwrap(try untrusting.client().request("/", headers: ["X-Forwarded-Proto: https"]))
        XCTAssertNil(stranger.headers["strict-transport-security"])
    }
}
