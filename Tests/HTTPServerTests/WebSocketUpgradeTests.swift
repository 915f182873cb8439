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

    private func status(_ verdict: WebSocketUpgrade.Verdict) -> Int {
        switch verdict {
        case .accept: 101
        case .refuse(let response): response.status
        }
    }

    func testValidRequestIsAccepted() {
        guard case .accept(let key) = WebSocketUpgrade.evaluate(request(), allowedOrigins: nil) else { return XCTFail() }
        XCTAssertEqual(key, "dGhlIHNhbXBsZSBub25jZQ==")
    }

    func testBadKeyOrVersion() {
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(removing: ["Sec-WebSocket-Key"]), allowedOrigins: nil)), 400)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(
            request([("Sec-WebSocket-Key", "short")], removing: ["Sec-WebSocket-Key"]), allowedOrigins: nil)), 400)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(
            request([("Sec-WebSocket-Version", "8")], removing: ["Sec-WebSocket-Version"]), allowedOrigins: nil)), 426)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(removing: ["Sec-WebSocket-Version"]), allowedOrigins: nil)), 400)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(removing: ["Upgrade"]), allowedOrigins: nil)), 426)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(removing: ["Connection"]), allowedOrigins: nil)), 400)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request(method: "POST"), allowedOrigins: nil)), 405)
    }

    func testOriginPolicy() {
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://localhost:8080")]), allowedOrigins: nil)), 101)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://evil.example")]), allowedOrigins: nil)), 403)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://localhost:9999")]), allowedOrigins: nil)), 403)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "https://app.example")]),
                                                        allowedOrigins: ["https://app.example"])), 101)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://localhost:8080")]),
                                                        allowedOrigins: ["https://app.example"])), 403)
        XCTAssertEqual(status(WebSocketUpgrade.evaluate(request([("Origin", "http://any")]), allowedOrigins: ["*"])), 101)
    }
}
