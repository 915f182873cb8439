import Foundation
@testable import HTTPServer
import NetworkTestSupport
import XCTest

/// Routes answered later, from another thread: a deferred response and an upgrade's admission.
/// The connection waits for the answer, and the requests behind it wait their turn.
final class DeferredRouteIntegrationTests: XCTestCase {
    private var harness: ServerHarness?

    override func tearDown() {
        if let harness { XCTAssertTrue(harness.shutdown()) }
        harness = nil
    }

    private func start() throws -> ServerHarness {
        let harness = try ServerHarness()
        self.harness = harness
        return harness
    }

    func testADeferredAnswerComesLaterAndPipelinedRequestsWaitBehindIt() throws {
        let harness = try start()
        let pending = Locked<[HTTPAnswer<HTTPResponse>]>([])
        let bodies = Locked<[String]>([])
        try harness.runner.sync { [server = harness.server] in
            server.value?.addDeferredRoute("/later", methods: ["POST"]) { request, answer in
                bodies.withLock { $0.append(String(decoding: request.body, as: UTF8.self)) }
                pending.withLock { $0.append(answer) }
            }
        }
        let client = try harness.client()
        client.send("POST /later HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello"
            + "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertTrue(eventually { pending.withLock { $0.count } == 1 })
        XCTAssertEqual(bodies.withLock { $0 }, ["hello"])
        client.setTimeout(seconds: 1)
        XCTAssertNil(client.receiveSome(max: 100), "nothing is answered before the deferred response")
        client.setTimeout(seconds: 5)
        let answer = try XCTUnwrap(pending.withLock { $0.first })
        // From this thread, not the loop's: the answer hops there.
        answer(HTTPResponse(status: 200, contentType: "text/plain", body: "later"))
        answer(HTTPResponse(status: 500, contentType: "text/plain", body: "twice"))
        // A late answer must not answer a later request of the connection either.
        client.send("POST /later HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.text, "later")
        XCTAssertEqual(client.readResponse()?.text, "up 1\n", "the pipelined request is answered after it, in order")
        client.setTimeout(seconds: 1)
        XCTAssertNil(client.receiveSome(max: 100), "the second call of an answer is ignored")
        XCTAssertTrue(eventually { pending.withLock { $0.count } == 2 })
        answer(HTTPResponse(status: 500, contentType: "text/plain", body: "late"))
        XCTAssertNil(client.receiveSome(max: 100), "the first request's answer does not answer the second")
        pending.withLock { $0[1] }(HTTPResponse(status: 200, contentType: "text/plain", body: "second"))
        client.setTimeout(seconds: 5)
        XCTAssertEqual(client.readResponse()?.text, "second")
    }

    func testADeferredRouteTakesOnlyItsMethods() throws {
        let harness = try start()
        try harness.runner.sync { [server = harness.server] in
            server.value?.addDeferredRoute("/later", methods: ["POST"]) { _, answer in answer(HTTPResponse(status: 204)) }
        }
        let client = try harness.client()
        let refused = try XCTUnwrap(client.request("GET", "/later"))
        XCTAssertEqual(refused.status, 405)
        XCTAssertEqual(refused.headers["allow"], "POST")
        XCTAssertEqual(client.request("POST", "/later", headers: ["Content-Length: 0"])?.status, 204)
    }

    func testAnUpgradeWaitsForItsAdmissionAndIsRefusedOrOpenedWithWhatItGave() throws {
        let harness = try start()
        let identities = Locked<[String]>([])
        try harness.runner.sync { [server = harness.server, events = harness.events] in
            server.value?.addWebSocketRoute("/ws/gated", admit: { request, answer in
                let who = request.head.header("x-who")
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                    answer(who.map { .admit(NSString(string: $0)) } ?? .refuse(HTTPResponse(status: 401, contentType: "text/plain", body: "no")))
                }
            }) { identity in
                identities.withLock { $0.append((identity as? NSString).map(String.init) ?? "none") }
                return RecordingHandler(events: events)
            }
        }
        let upgrade = "GET /ws/gated HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        let refused = try harness.client()
        refused.send(upgrade + "\r\n")
        XCTAssertEqual(refused.readResponse()?.status, 401)
        let admitted = try harness.client()
        admitted.send(upgrade + "X-Who: ada\r\n\r\n")
        XCTAssertEqual(admitted.readResponse()?.status, 101)
        XCTAssertEqual(identities.withLock { $0 }, ["ada"], "only the admitted upgrade made a handler, with what admit gave")
    }
}
