import EventLoop
import Foundation
@testable import HTTPServer
import NetworkTestSupport
import XCTest

/// Pipelined requests whose answers outgrow the unsent-output limit (default timeouts, so a
/// slow test machine cannot turn the pause into a timeout).
final class BackpressureIntegrationTests: XCTestCase {
    private var harness: ServerHarness!

    override func setUpWithError() throws {
        harness = try ServerHarness()
    }

    override func tearDown() {
        XCTAssertTrue(harness.shutdown())
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        harness = nil
    }

    func testPipelinedFloodIsPacedByBackpressureNotDropped() throws {
        // 2000 requests for a 16 KiB file: 32 MiB of answers, twice the unsent-output limit.
        let blob = [UInt8](repeating: 0x42, count: 16 * 1024)
        try Data(blob).write(to: harness.root.appendingPathComponent("blob.bin"))
        let client = try harness.client()
        let count = 2000
        client.send(String(repeating: "GET /blob.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: count))
        var answered = 0
        while answered < count, let response = client.readResponse() {
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.body.count, blob.count)
            answered += 1
        }
        XCTAssertEqual(answered, count)
    }

    func testPeerThatStopsReadingIsDroppedAfterTheIdleTimeout() throws {
        XCTAssertTrue(harness.shutdown())
        harness = try ServerHarness { $0.idleTimeout = .milliseconds(500) }
        try Data([UInt8](repeating: 0x42, count: 16 * 1024)).write(to: harness.root.appendingPathComponent("blob.bin"))
        let start = Date()   // before the connection, so a slow test thread cannot shorten the wait
        let client = try harness.client()
        client.setReceiveBuffer(4096)
        client.send(String(repeating: "GET /blob.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 1000))
        XCTAssertTrue(eventually { LiveCounts.connections == 1 })
        // Never read: the server pauses, then drops the connection once the idle timeout passes.
        XCTAssertTrue(eventually(timeout: 5) { LiveCounts.connections == 0 })
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.45)
        let paused = client.receiveSome(max: 1024)
        XCTAssertNotNil(paused, "some answers were sent before the pause")
    }
}
