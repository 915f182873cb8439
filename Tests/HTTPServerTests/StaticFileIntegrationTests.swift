import EventLoop
import Foundation
@testable import HTTPServer
import NetworkTestSupport
import XCTest

final class StaticFileIntegrationTests: XCTestCase {
    private var harness: ServerHarness!

    override func setUpWithError() throws {
        // Short enough to test, long enough that a loaded machine does not trip them elsewhere.
        harness = try ServerHarness { $0.headTimeout = .seconds(1); $0.idleTimeout = .milliseconds(1500) }
    }

    override func tearDown() {
        XCTAssertTrue(harness.shutdown())
        XCTAssertTrue(eventually { LiveCounts.connections == 0 }, "connections left: \(LiveCounts.connections)")
        harness = nil
    }

    func testGetServesFilesWithTypeLengthAndValidators() throws {
        let client = try harness.client()
        let index = try XCTUnwrap(client.request("/"))
        XCTAssertEqual(index.status, 200)
        XCTAssertEqual(index.text, "<h1>home</h1>\n")
        XCTAssertEqual(index.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertEqual(index.headers["content-length"], "14")
        XCTAssertNotNil(index.headers["etag"])
        XCTAssertNotNil(index.headers["last-modified"])
        let css = try XCTUnwrap(client.request("/style.css"))
        XCTAssertEqual(css.headers["content-type"], "text/css; charset=utf-8")
        XCTAssertEqual(css.text, "body { color: red }\n")
        XCTAssertEqual(try XCTUnwrap(client.request("/sub/")).text, "sub index\n")
        XCTAssertEqual(try XCTUnwrap(client.request("/sub")).text, "sub index\n")
        XCTAssertEqual(try XCTUnwrap(client.request("/link-in.css")).status, 200, "symlinks inside the root are fine")
    }

    func testHeadSendsHeadersWithoutBody() throws {
        let client = try harness.client()
        let head = try XCTUnwrap(client.request("HEAD", "/style.css"))
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], "20")
        XCTAssertEqual(head.body, [])
        // No body bytes followed: the next response on the same connection parses cleanly.
        XCTAssertEqual(try XCTUnwrap(client.request("/style.css")).text, "body { color: red }\n")
    }

    func testConditionalGetAnswers304() throws {
        let client = try harness.client()
        let first = try XCTUnwrap(client.request("/style.css"))
        let etag = try XCTUnwrap(first.headers["etag"])
        let lastModified = try XCTUnwrap(first.headers["last-modified"])
        let byTag = try XCTUnwrap(client.request("/style.css", headers: ["If-None-Match: \(etag)"]))
        XCTAssertEqual(byTag.status, 304)
        XCTAssertEqual(byTag.body, [])
        XCTAssertEqual(byTag.headers["etag"], etag)
        XCTAssertEqual(try XCTUnwrap(client.request("/style.css", headers: ["If-Modified-Since: \(lastModified)"])).status, 304)
        XCTAssertEqual(try XCTUnwrap(client.request("/style.css", headers: ["If-None-Match: \"other\""])).status, 200)
        XCTAssertEqual(try XCTUnwrap(client.request("/style.css", headers: ["If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT"])).status, 200)
    }

    func testOtherMethodsGet405WithAllow() throws {
        let client = try harness.client()
        for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
            let response = try XCTUnwrap(client.request(method, "/index.html"))
            XCTAssertEqual(response.status, 405, method)
            XCTAssertEqual(response.headers["allow"], "GET, HEAD")
        }
        XCTAssertEqual(try XCTUnwrap(client.request("OPTIONS", "*")).status, 405)
    }

    func testTraversalAttemptsNeverLeaveThePublicDirectory() throws {
        let attempts: [(String, Int)] = [
            ("/../secret.txt", 404), ("/%2e%2e/secret.txt", 404), ("/%2E%2E/secret.txt", 404),
            ("/sub/..%2f..%2fsecret.txt", 404), ("/sub/%2e%2e/%2e%2e/secret.txt", 404), ("/..%5csecret.txt", 404),
            ("/sub\\..\\..\\secret.txt", 404), ("/link-out", 404), ("/missing.html", 404),
            ("/secret.txt%00.html", 400), ("/%zz", 400),
        ]
        for (target, status) in attempts {
            let client = try harness.client()
            let response = try XCTUnwrap(client.request(target), target)
            XCTAssertEqual(response.status, status, target)
            XCTAssertFalse(response.text.contains("top secret"), target)
        }
    }

    func testHealthzAndRoutes() throws {
        let client = try harness.client()
        let health = try XCTUnwrap(client.request("/healthz"))
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.text, #"{"status":"ok"}"#)
        XCTAssertEqual(health.headers["content-type"], "application/json")
        XCTAssertEqual(try XCTUnwrap(client.request("/metrics")).text, "up 1\n")
        XCTAssertEqual(try XCTUnwrap(client.request("POST", "/metrics")).status, 405)
    }

    func testTheHealthCheckAndTheWebSocketPathsAreTheConfigurations() throws {
        XCTAssertTrue(harness.shutdown())
        harness = try ServerHarness { $0.healthCheckPath = "/status"; $0.webSocketPathPrefix = "/live" }
        let client = try harness.client()
        XCTAssertEqual(try XCTUnwrap(client.request("/status")).text, #"{"status":"ok"}"#)
        XCTAssertEqual(try XCTUnwrap(client.request("/healthz")).status, 404, "no health check there now")
        XCTAssertEqual(try XCTUnwrap(client.request("/live/anything")).status, 404)
        XCTAssertEqual(try XCTUnwrap(client.request("/live")).status, 404)
    }

    func testLimits431_413_505_400() throws {
        let big = try harness.client()
        big.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "a", count: 17 * 1024) + "\r\n\r\n")
        XCTAssertEqual(big.readResponse()?.status, 431)
        XCTAssertTrue(big.receiveUntilEOF().eof, "closed after 431")

        let body = try harness.client()
        body.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000\r\n\r\n")
        XCTAssertEqual(body.readResponse()?.status, 413)
        XCTAssertTrue(body.receiveUntilEOF().eof)

        let version = try harness.client()
        version.send("GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertEqual(version.readResponse()?.status, 505)

        let garbage = try harness.client()
        garbage.send("\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}\u{0}\u{1}\u{fc}\u{3}\u{3}")  // a TLS ClientHello start
        XCTAssertEqual(garbage.readResponse()?.status, 400)
        XCTAssertTrue(garbage.receiveUntilEOF().eof)
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let client = try harness.client()
        client.send("GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nHEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.text, "body { color: red }\n")
        let head = client.readResponse(headOnly: true)
        XCTAssertEqual(head?.status, 200)
        XCTAssertEqual(head?.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertEqual(client.readResponse()?.status, 404)
        let last = client.readResponse()
        XCTAssertEqual(last?.text, #"{"status":"ok"}"#)
        XCTAssertEqual(last?.headers["connection"], "close")
        XCTAssertTrue(client.receiveUntilEOF().eof)
    }

    func testSlowHeadGets408AndIsClosed() throws {
        let start = Date()   // before the connection, whose accept starts the head timer
        let client = try harness.client()
        client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        usleep(500_000)
        client.send("X-Slow: 1\r\n")   // trickling bytes does not restart the head timer
        let response = client.readResponse()
        XCTAssertEqual(response?.status, 408)
        XCTAssertTrue(client.receiveUntilEOF().eof)
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.95)
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
    }

    func testSilentConnectionIsClosedAfterTheHeadTimeout() throws {
        let client = try harness.client()
        let result = client.receiveUntilEOF()
        XCTAssertTrue(result.eof)
        XCTAssertEqual(result.bytes, [])
    }

    func testIdleKeepAliveConnectionIsClosed() throws {
        let client = try harness.client()
        XCTAssertEqual(client.request("/")?.status, 200)
        usleep(500_000)
        // Taken before the request, whose response restarts the idle timer.
        let start = Date()
        XCTAssertEqual(client.request("/")?.status, 200, "still open within the idle timeout")
        XCTAssertTrue(client.receiveUntilEOF().eof)
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 1.45)
    }

    func testConnectionsReturnToZeroAfterClientsLeave() throws {
        do {
            let clients = try (0..<5).map { _ in try harness.client() }
            for client in clients { XCTAssertEqual(client.request("/")?.status, 200) }
            XCTAssertEqual(LiveCounts.connections, 5)
        }
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        let server = harness.server
        XCTAssertEqual(try harness.runner.sync { server.value?.connectionCount }, 0)
    }
}
