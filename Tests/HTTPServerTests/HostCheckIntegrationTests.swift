import Foundation
@testable import HTTPServer
import NetworkTestSupport
import XCTest

/// The Host check and the Origin rule on a real server: DNS rebinding gets 421.
final class HostCheckIntegrationTests: XCTestCase {
    private var harness: ServerHarness?

    override func tearDown() {
        if let harness { XCTAssertTrue(harness.shutdown()) }
        harness = nil
    }

    private func start(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> ServerHarness {
        let harness = try ServerHarness(configure: configure)
        self.harness = harness
        return harness
    }

    private func status(_ harness: ServerHarness, _ request: String) throws -> Int? {
        let client = try harness.client()
        client.send(request)
        return client.readResponse()?.status
    }

    private func upgrade(host: String, origin: String?) -> String {
        "GET /ws/echo HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n"
    }

    func testDefaultNamesAnswerAndOtherHostsGet421() throws {
        let harness = try start()
        let port = harness.port
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "LOCALHOST"] {
            XCTAssertEqual(try status(harness, "GET /healthz HTTP/1.1\r\nHost: \(host)\r\n\r\n"), 200, host)
        }
        XCTAssertEqual(try status(harness, "GET / HTTP/1.1\r\nHost: rebind.attacker.example:8081\r\n\r\n"), 421)
        XCTAssertEqual(try status(harness, "GET / HTTP/1.0\r\n\r\n"), 200, "HTTP/1.0 may leave Host out")
        // The rebinding attack: a page on the attacker's name, resolved to this server.
        let rebinding = upgrade(host: "rebind.attacker.example:8081", origin: "http://rebind.attacker.example:8081")
        XCTAssertEqual(try status(harness, rebinding), 421)
        XCTAssertEqual(try status(harness, upgrade(host: "localhost:\(port)", origin: "http://localhost:\(port)")), 101)
        XCTAssertEqual(try status(harness, upgrade(host: "localhost:\(port)", origin: "http://evil.example")), 403)
        XCTAssertEqual(harness.events.withLock { $0.filter { $0 == "open" }.count }, 1, "only the page's own origin opened a session")
    }

    func testConfiguredNamesReplaceTheDefaultsAndAllowedOriginsAdd() throws {
        let harness = try start {
            $0.serverNames = ["rxlive.example"]
            $0.allowedOrigins = ["https://app.example"]
        }
        XCTAssertEqual(try status(harness, "GET /healthz HTTP/1.1\r\nHost: rxlive.example:8443\r\n\r\n"), 200)
        XCTAssertEqual(try status(harness, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), 421)
        XCTAssertEqual(try status(harness, upgrade(host: "rxlive.example", origin: "http://rxlive.example")), 101,
                       "the page's own origin stays allowed beside the listed one")
        XCTAssertEqual(try status(harness, upgrade(host: "rxlive.example", origin: "https://app.example")), 101)
        XCTAssertEqual(try status(harness, upgrade(host: "rxlive.example", origin: "https://rxlive.example")), 403,
                       "a plain server's own origin is http")
    }

    func testHostLinesAbsoluteFormAndPortsFollowRFC9112() throws {
        let harness = try start()
        let port = harness.port
        XCTAssertEqual(try status(harness, "GET /healthz HTTP/1.0\r\nHost: localhost\r\nHost: evil.example\r\n\r\n"), 400,
                       "two Host lines in HTTP/1.0")
        XCTAssertEqual(try status(harness, "GET http://evil.example/healthz HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n"), 421,
                       "the absolute-form authority is the host checked")
        XCTAssertEqual(try status(harness, "GET http://localhost:\(port)/healthz HTTP/1.1\r\nHost: evil.example\r\n\r\n"), 200,
                       "and it overrides Host")
        XCTAssertEqual(try status(harness, "GET http://evil.example/healthz HTTP/1.0\r\n\r\n"), 421)
        XCTAssertEqual(try status(harness, "GET /healthz HTTP/1.1\r\nHost: localhost:65536\r\n\r\n"), 400)
        XCTAssertEqual(try status(harness, "GET /healthz HTTP/1.1\r\nHost: localhost:0\r\n\r\n"), 400)
        XCTAssertEqual(try status(harness, "GET /healthz HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n"), 200)
    }
}
