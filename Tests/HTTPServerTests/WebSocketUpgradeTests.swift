@testable import HTTPServer
import XCTest

final class WebSocketUpgradeTests: XCTestCase {
    private func request(_ extra: [(String, String)] = [], removing: Set<String> = [], method: String = "GET") -> HTTPRequestHead {
        var headers: [(name: String, value: String)] = [
            ("Host", "localhost:8080"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
        ]
        headers.removeAll { removing.contains($0.name) }
        headers += extra.map { (name: $0.0, value: $0.1) }
        return HTTPRequestHead(method: method, target: "/ws/login", headers: headers)
    }

    private func policy(_ extraOrigins: [String] = [], scheme: String = "http") -> HostPolicy {
        HostPolicy(names: HostPolicy.defaultNames(listeningOn: "127.0.0.1"), scheme: scheme, extraOrigins: extraOrigins)
    }

    private func status(_ verdict: WebSocketUpgrade.Verdict) -> Int {
        switch verdict {
        case .accept: 101
        case .refuse(let response): response.status
        }
    }

    func testValidRequestIsAccepted() {
        guard case .accept = WebSocketUpgrade.evaluate(request(), hostPolicy: policy()) else { return XCTFail() }
        // The key is read again from the head's bytes for the answer.
        XCTAssertEqual(request().withOnlyFieldValue(.secWebSocketKey) { $0.map { String(decoding: $0, as: UTF8.self) } },
                       "dGhlIHNhbXBsZSBub25jZQ==")
    }

    func testBadKeyOrVersion() {
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(removing: ["Sec-WebSocket-Key"]), hostPolicy: policy())), 400)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(
            request([("Sec-WebSocket-Key", "short")], removing: ["Sec-WebSocket-Key"]), hostPolicy: policy())), 400)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(
            request([("Sec-WebSocket-Version", "8")], removing: ["Sec-WebSocket-Version"]), hostPolicy: policy())), 426)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(removing: ["Sec-WebSocket-Version"]), hostPolicy: policy())), 400)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(removing: ["Upgrade"]), hostPolicy: policy())), 426)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(removing: ["Connection"]), hostPolicy: policy())), 400)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(method: "POST"), hostPolicy: policy())), 405)
    }

    func testOriginPolicy() {
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://localhost:8080")]), hostPolicy: policy())), 101)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://evil.example")]), hostPolicy: policy())), 403)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://localhost:9999")]), hostPolicy: policy())), 403)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "https://app.example")]),
                                                        hostPolicy: policy(["https://app.example"]))), 101)
        // Listed origins add to the page's own instead of replacing it.
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://localhost:8080")]),
                                                        hostPolicy: policy(["https://app.example"]))), 101)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "HTTP://LOCALHOST:8080")]), hostPolicy: policy())), 101)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://any")]), hostPolicy: policy(["*"]))), 101)
    }

    func testOwnOriginHasTheServersScheme() {
        let https = policy(scheme: "https")
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "https://localhost:8080")]), hostPolicy: https)), 101)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://localhost:8080")]), hostPolicy: https)), 403)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "https://localhost:8080")]), hostPolicy: policy())), 403)
    }

    func testHostNamesAreCheckedWithoutPort() {
        // A short list of names is searched in order, a long one hashed: the same answers.
        let many = HostPolicy(names: HostPolicy.defaultNames(listeningOn: "127.0.0.1") + (1...20).map { "n\($0).example" },
                              scheme: "http", extraOrigins: [])
        XCTAssertTrue(many.accepts(host: "N7.Example:80"))
        for policy in [policy(), many] {
            checkDefaultNames(policy)
        }
        let configured = HostPolicy(names: ["rxlive.example", "::1"], scheme: "https", extraOrigins: [])
        XCTAssertTrue(configured.accepts(host: "RXLIVE.example:443"))
        XCTAssertTrue(configured.accepts(host: "[::1]"))
        XCTAssertFalse(configured.accepts(host: "localhost:8080"))
        XCTAssertTrue(HostPolicy(names: ["*"], scheme: "http", extraOrigins: []).accepts(host: "anything.example"))
        XCTAssertFalse(HostPolicy(names: ["*"], scheme: "http", extraOrigins: []).accepts(host: "anything.example:0"))
        // A name that is not ASCII, and a Host that is not: compared as strings.
        let unicode = HostPolicy(names: ["MÜNCHEN.de", "localhost"], scheme: "http", extraOrigins: [])
        XCTAssertTrue(unicode.accepts(host: "münchen.DE:80"))
        XCTAssertTrue(unicode.accepts(host: "LOCALHOST"))
        XCTAssertTrue(policy().accepts(host: "LOCALHOST"))
        XCTAssertFalse(policy().accepts(host: "LOCALHÖST"))
        XCTAssertFalse(policy().accepts(host: "localhost1"))
        XCTAssertFalse(policy().accepts(host: "localhos"))
    }

    private func checkDefaultNames(_ policy: HostPolicy, line: UInt = #line) {
        XCTAssertTrue(policy.accepts(host: "localhost:8080"), line: line)
        XCTAssertTrue(policy.accepts(host: "LocalHost"), line: line)
        XCTAssertTrue(policy.accepts(host: "127.0.0.1:1"), line: line)
        XCTAssertTrue(policy.accepts(host: "[::1]:8080"), line: line)
        XCTAssertFalse(policy.accepts(host: "rebind.attacker.example:8081"), line: line)
        XCTAssertFalse(policy.accepts(host: "localhost.attacker.example"), line: line)
        XCTAssertFalse(policy.accepts(host: "localhost:80x"), line: line)
        XCTAssertFalse(policy.accepts(host: "localhost:"), line: line)
        XCTAssertFalse(policy.accepts(host: "::1"), line: line)
        XCTAssertFalse(policy.accepts(host: ""), line: line)
    }

    /// The Origin check made on the fields' bytes answers as the one made on strings, for
    /// own, foreign, cased, non-ASCII and listed origins.
    func testTheOriginCheckOnBytesAgreesWithTheCheckOnStrings() {
        let origins = ["http://localhost:8080", "HTTP://LocalHost:8080", "https://localhost:8080", "http://localhost:808",
                       "http://localhost:80800", "http://évil.example", "http://LOCALHOST:8080/", "https://app.example",
                       "HTTPS://APP.EXAMPLE", "http:/localhost:8080", "", "null"]
        let hosts = ["localhost:8080", "LOCALHOST:8080", "localhost", "hôst:8080"]
        for extra in [[], ["https://app.example"], ["*"]] {
            for scheme in ["http", "https"] {
                let policy = policy(extra, scheme: scheme)
                for origin in origins {
                    for host in hosts {
                        var originText = origin
                        var hostText = host
                        let onBytes = originText.withUTF8 { origin in hostText.withUTF8 { policy.allows(originBytes: origin, hostBytes: $0) } }
                        XCTAssertEqual(onBytes, policy.allows(origin: origin, host: host), "\(origin) \(host) \(extra) \(scheme)")
                    }
                }
            }
        }
        // The check against a parsed head: the page's own origin in any case passes, another fails.
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "hTTp://LOCALhost:8080")]), hostPolicy: policy())), 101)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://localhost:8081")]), hostPolicy: policy())), 403)
    }
}
