import EventLoop
import Foundation
@testable import HTTPServer
import NetworkTestSupport
import XCTest

final class WebSocketIntegrationTests: XCTestCase {
    private var harness: ServerHarness!

    private func start(_ configure: @escaping (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        harness = try ServerHarness(configure: configure)
    }

    override func tearDown() {
        if let harness { XCTAssertTrue(harness.shutdown()) }
        XCTAssertTrue(eventually { LiveCounts.connections == 0 }, "connections left: \(LiveCounts.connections)")
        harness = nil
    }

    private func openSocket(extra: [String] = []) throws -> BlockingClient {
        let client = try harness.client()
        client.send(WSTestFrames.upgradeRequest(extra: extra))
        let response = try XCTUnwrap(client.readResponse())
        XCTAssertEqual(response.status, 101)
        XCTAssertEqual(response.headers["sec-websocket-accept"], "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        return client
    }

    func testUpgradeEchoAndCloseHandshake() throws {
        try start()
        let client = try openSocket()
        client.send(WSTestFrames.text("hello"))
        let echo = try XCTUnwrap(client.readFrame())
        XCTAssertEqual(echo.opcode, 1)
        XCTAssertEqual(String(decoding: echo.payload, as: UTF8.self), "echo:hello")
        // A ping is answered with a pong carrying the same payload.
        client.send(WSTestFrames.frame(opcode: 9, payload: Array("p1".utf8)))
        let pong = try XCTUnwrap(client.readFrame())
        XCTAssertEqual(pong.opcode, 10)
        XCTAssertEqual(pong.payload, Array("p1".utf8))
        client.send(WSTestFrames.close(1000, "done"))
        let close = try XCTUnwrap(client.readFrame())
        XCTAssertEqual(close.opcode, 8)
        XCTAssertEqual(Array(close.payload.prefix(2)), [0x03, 0xE8])
        XCTAssertTrue(client.receiveUntilEOF().eof, "the server closes TCP after the handshake")
        client.shutdownWrite()
        XCTAssertTrue(eventually { harness.events.withLock { $0 } == ["open", "text:hello", "closed"] },
                      "\(harness.events.withLock { $0 })")
    }

    /// An upgrade on a path no route takes goes to the fallback; a routed path keeps its route.
    func testAnUnroutedPathUpgradesToTheFallbackAndARoutedOneToItsRoute() throws {
        try start()
        let server = harness.server, events = harness.events
        try harness.runner.sync { server.value?.setWebSocketFallback { FallbackHandler(events: events) } }
        let unrouted = try harness.client()
        unrouted.send(WSTestFrames.upgradeRequest(path: "/anything"))
        XCTAssertEqual(try XCTUnwrap(unrouted.readResponse()).status, 101)
        XCTAssertTrue(eventually { events.withLock { $0 } == ["fallback-open"] }, "\(events.withLock { $0 })")
        // Kept open until checked: a dropped client closes at once, adding "closed" before the poll.
        let routed = try openSocket()
        XCTAssertTrue(eventually { events.withLock { $0 } == ["fallback-open", "open"] }, "\(events.withLock { $0 })")
        withExtendedLifetime(routed) {}
    }

    func testEchoesOfEverySizeAroundTheSmallFrameLimit() throws {
        // Replies under 126 bytes are written as one piece, longer ones as header and payload.
        try start()
        let client = try openSocket()
        for length in [0, 1, 100] + Array(115 ... 125) + [1000] {
            let text = String((0 ..< length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            client.send(WSTestFrames.text(text))
            let echo = try XCTUnwrap(client.readFrame(), "length \(length)")
            XCTAssertEqual(echo.opcode, 1)
            XCTAssertEqual(String(decoding: echo.payload, as: UTF8.self), "echo:" + text, "length \(length)")
        }
    }

    func testFramesSentWithTheUpgradeRequestAreNotLost() throws {
        try start()
        let client = try harness.client()
        client.send(Array(WSTestFrames.upgradeRequest().utf8) + WSTestFrames.text("early"))
        XCTAssertEqual(client.readResponse()?.status, 101)
        XCTAssertEqual(client.readFrame().map { String(decoding: $0.payload, as: UTF8.self) }, "echo:early")
    }

    func testServerInitiatedCloseWaitsForThePeer() throws {
        try start()
        let client = try openSocket()
        client.send(WSTestFrames.text("close me"))
        let close = try XCTUnwrap(client.readFrame())
        XCTAssertEqual(close.opcode, 8)
        XCTAssertEqual(Array(close.payload), [0x03, 0xE8] + Array("bye".utf8))
        client.send(WSTestFrames.close(1000))
        XCTAssertTrue(client.receiveUntilEOF().eof)
        client.shutdownWrite()
        XCTAssertTrue(eventually { harness.events.withLock { $0.last } == "closed" })
    }

    func testProtocolErrorsCloseWithTheirCodes() throws {
        try start { $0.maxMessageSize = 1000 }
        let cases: [([UInt8], [UInt8])] = [
            (WSTestFrames.frame(opcode: 1, payload: Array(repeating: 0x61, count: 1001)), [0x03, 0xF1]), // 1009
            (WSTestFrames.frame(opcode: 1, payload: [0xC0, 0xAF]), [0x03, 0xEF]),                       // 1007
            (WSTestFrames.frame(opcode: 3, payload: []), [0x03, 0xEA]),                                   // 1002 reserved opcode
            ([0x81, 0x02, 0x68, 0x69], [0x03, 0xEA]),                                                     // 1002 unmasked
            (WSTestFrames.frame(opcode: 2, payload: [1, 2]), [0x03, 0xEB]),                               // 1003 binary
        ]
        for (frame, code) in cases {
            let client = try openSocket()
            client.send(frame)
            let close = try XCTUnwrap(client.readFrame())
            XCTAssertEqual(close.opcode, 8)
            XCTAssertEqual(Array(close.payload.prefix(2)), code)
            XCTAssertTrue(client.receiveUntilEOF().eof)
        }
    }

    func testUpgradeFailures() throws {
        try start()
        func status(_ request: String) throws -> RawResponse? {
            let client = try harness.client()
            client.send(request)
            return client.readResponse()
        }
        XCTAssertEqual(try status(WSTestFrames.upgradeRequest(key: "not-a-key"))?.status, 400)
        let version = try status(WSTestFrames.upgradeRequest(version: "8"))
        XCTAssertEqual(version?.status, 426)
        XCTAssertEqual(version?.headers["sec-websocket-version"], "13")
        XCTAssertEqual(try status(WSTestFrames.upgradeRequest(extra: ["Origin: http://evil.example"]))?.status, 403)
        XCTAssertEqual(try status(WSTestFrames.upgradeRequest(path: "/ws/other"))?.status, 404)
        XCTAssertEqual(try status("GET /ws/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")?.status, 426)
        // The page's own origin passes.
        let client = try openSocket(extra: ["Origin: http://127.0.0.1"])
        client.send(WSTestFrames.close(1000))
        XCTAssertEqual(client.readFrame()?.opcode, 8)
    }

    func testHeartbeatDropsAPeerThatNeverAnswers() throws {
        try start { $0.pingInterval = .milliseconds(100); $0.pongTimeout = .milliseconds(300) }
        // Taken before the upgrade, so a slow test thread can only lengthen what it measures:
        // the first ping comes within 100 ms of the upgrade, the close 300 ms after it.
        let start = Date()
        let silent = try openSocket()
        let ping = try XCTUnwrap(silent.readFrame())
        XCTAssertEqual(ping.opcode, 9)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "a first ping within the interval")
        XCTAssertTrue(silent.receiveUntilEOF().eof)
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.3, "not before the pong deadline")
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
        XCTAssertTrue(eventually { harness.events.withLock { $0.last } == "closed" })
    }

    func testHeartbeatKeepsAnAnsweringPeer() throws {
        try start { $0.pingInterval = .milliseconds(150); $0.pongTimeout = .milliseconds(600) }
        let client = try openSocket()
        let start = Date()
        var pings = 0
        // Answer pings for well past the pong deadline: the connection must stay.
        while Date().timeIntervalSince(start) < 1.5 {
            let ping = try XCTUnwrap(client.readFrame(), "closed after \(pings) pings")
            XCTAssertEqual(ping.opcode, 9)
            client.send(WSTestFrames.frame(opcode: 10, payload: ping.payload))
            pings += 1
        }
        XCTAssertGreaterThanOrEqual(pings, 4)
        client.send(WSTestFrames.text("still here"))
        var reply = client.readFrame()
        while reply?.opcode == 9 { reply = client.readFrame() }
        XCTAssertEqual(reply.map { String(decoding: $0.payload, as: UTF8.self) }, "echo:still here")
    }

    func testGracefulShutdownDrains() throws {
        try start()
        let socket = try openSocket()
        let http = try harness.client()
        http.send("GET /healthz HTTP/1.1\r\n")     // mid-request when the shutdown starts
        XCTAssertTrue(eventually { LiveCounts.connections == 2 })
        usleep(100_000) // let the server read the partial head
        let done = Locked(false)
        let server = harness.server
        try harness.runner.sync { server.value?.shutdown { done.withLock { $0 = true } } }
        XCTAssertEqual(try harness.runner.sync { server.value?.isDraining }, true)
        let close = try XCTUnwrap(socket.readFrame())
        XCTAssertEqual(close.opcode, 8)
        XCTAssertEqual(Array(close.payload.prefix(2)), [0x03, 0xE9], "1001 going away")
        http.send("Host: 127.0.0.1\r\n\r\n")
        let health = try XCTUnwrap(http.readResponse())
        XCTAssertEqual(health.status, 503)
        XCTAssertEqual(health.headers["connection"], "close")
        XCTAssertFalse(done.withLock { $0 }, "waits for the WebSocket's close")
        socket.send(WSTestFrames.close(1001))
        XCTAssertTrue(socket.receiveUntilEOF().eof)
        socket.shutdownWrite()
        http.shutdownWrite()
        XCTAssertTrue(eventually { done.withLock { $0 } })
        XCTAssertThrowsError(try BlockingClient(port: harness.port), "no longer accepting")
        XCTAssertEqual(LiveCounts.connections, 0)
        XCTAssertTrue(eventually { harness.events.withLock { $0.last } == "closed" })
    }
}

/// Records its opening apart from `RecordingHandler`'s.
private final class FallbackHandler: WebSocketHandler {
    let events: Locked<[String]>
    init(events: Locked<[String]>) { self.events = events }
    func webSocketDidOpen(_ connection: WebSocketConnection, request: HTTPRequestHead) { events.withLock { $0.append("fallback-open") } }
    func webSocket(_ connection: WebSocketConnection, didReceiveText text: String) {}
    func webSocketDidClose(_ connection: WebSocketConnection) {}
}
