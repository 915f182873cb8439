import EventLoop
import Foundation
@testable import HTTPServer
import NetworkTestSupport
import XCTest

final class HTTPServerGroupTests: XCTestCase {
    /// Two loops behind one port: connections are spread over both servers and stay on theirs;
    /// the drain grace turns /healthz to 503 on both while they still serve; shutdown drains
    /// both and every handle closes.
    func testTwoLoopsShareThePortAndDrainTogether() throws {
        let handlesBefore = LiveCounts.handles
        let loops = try EventLoopGroup(count: 2)
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, publicDirectory: nil)
        configuration.shutdownTimeout = .seconds(5)
        let group = HTTPServerGroup(configuration: configuration, loops: loops)
        for (index, server) in group.servers.enumerated() {
            let loop = server.loop
            server.addRoute("/loop") { _ in
                HTTPResponse(status: 200, contentType: "text/plain", body: loop.inEventLoop ? "\(index)" : "off its loop")
            }
        }
        try group.start()
        let port = group.localPort
        let finished = DispatchSemaphore(value: 0)
        Thread {
            loops.run()
            finished.signal()
        }.start()

        var clients = try (0..<4).map { _ in try BlockingClient(port: port) }
        let answers = clients.map { $0.request("/loop")?.text ?? "none" }
        XCTAssertEqual(answers.sorted(), ["0", "0", "1", "1"])
        // Keep-alive: a connection's next request is served by the same loop.
        XCTAssertEqual(clients.map { $0.request("/loop")?.text ?? "none" }, answers)

        loops.first.execute { group.enterDrainGrace() }
        XCTAssertTrue(eventually { clients.allSatisfy { $0.request("/healthz")?.status == 503 } })
        XCTAssertEqual(clients.map { $0.request("/loop")?.status }, [200, 200, 200, 200])

        let drained = Locked(false)
        loops.first.execute {
            group.shutdown {
                drained.withLock { $0 = true }
                loops.stop()
            }
        }
        // Idle keep-alive connections are finished at once; closing ours ends the drain.
        for client in clients { XCTAssertEqual(client.receiveUntilEOF().eof, true) }
        clients.removeAll()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(drained.withLock { $0 })
        XCTAssertThrowsError(try BlockingClient(port: port), "nothing listens after the shutdown")
        XCTAssertEqual(LiveCounts.handles, handlesBefore)
    }
}
