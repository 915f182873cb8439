import EventLoop
import Foundation
@testable import HTTPServer
import NetworkTestSupport
import XCTest

/// Random and mutated bytes over real sockets: every connection ends, the server keeps
/// answering, and nothing stays open.
final class SocketFuzzTests: XCTestCase {
    private var harness: ServerHarness!

    override func setUpWithError() throws {
        harness = try ServerHarness { $0.headTimeout = .milliseconds(300); $0.idleTimeout = .milliseconds(300) }
    }

    override func tearDown() {
        XCTAssertTrue(harness.shutdown())
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        harness = nil
    }

    private func randomBytes(_ generator: inout SplitMix64, seedText: String) -> [UInt8] {
        var bytes = Array(seedText.utf8)
        let noise = Int(generator.next() % 64)
        for _ in 0..<noise {
            let byte = UInt8(truncatingIfNeeded: generator.next())
            if bytes.isEmpty || generator.next() % 2 == 0 {
                bytes.append(byte)
            } else {
                bytes[Int(generator.next() % UInt64(bytes.count))] = byte
            }
        }
        if generator.next() % 4 == 0 { bytes = (0..<Int(generator.next() % 4096)).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
        return bytes
    }

    func testRandomHTTPBytesNeverBreakTheServer() throws {
        var generator = SplitMix64(seed: 42)
        let seeds = ["GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "HEAD /style.css HTTP/1.0\r\n\r\n",
                     "GET /%2e%2e/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc", ""]
        for round in 0..<150 {
            let client = try harness.client()
            client.send(randomBytes(&generator, seedText: seeds[round % seeds.count]))
            client.shutdownWrite()
            let result = client.receiveUntilEOF()
            XCTAssertTrue(result.eof, "round \(round): the server ends every connection")
            if !result.bytes.isEmpty {
                XCTAssertTrue(result.bytes.starts(with: Array("HTTP/1.1 ".utf8)), "round \(round)")
            }
        }
        XCTAssertEqual(try harness.client().request("/healthz")?.status, 200)
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
    }

    func testRandomFramesAfterUpgradeEndCleanly() throws {
        var generator = SplitMix64(seed: 7)
        for round in 0..<60 {
            let client = try harness.client()
            client.send(WSTestFrames.upgradeRequest())
            XCTAssertEqual(client.readResponse()?.status, 101)
            var bytes = WSTestFrames.text("ok")
            bytes += (0..<Int(generator.next() % 300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            client.send(bytes)
            client.shutdownWrite()
            XCTAssertTrue(client.receiveUntilEOF().eof, "round \(round)")
        }
        XCTAssertTrue(eventually {
            let events = harness.events.withLock { $0 }
            return events.filter { $0 == "open" }.count == 60 && events.filter { $0 == "closed" }.count == 60
        }, "every opened handler was closed exactly once")
    }
}
