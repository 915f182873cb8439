import CLibUV
@testable import EventLoop
import Foundation
import NetworkTestSupport
import XCTest

/// Echoes what it reads.
private final class Echo: TCPConnectionDelegate {
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) { connection.write(bytes) }
    func connectionDidReachEOF(_ connection: TCPConnection) { connection.close() }
    func connectionDidClose(_ connection: TCPConnection) {}
}

final class TCPAcceptorTests: XCTestCase {
    func testConnectionsGoToTheLoopWithFewestOpenAndAreServedThere() throws {
        let handlesBefore = LiveCounts.handles
        let loops = try [LoopThread(), LoopThread()]
        // Per loop: connections handed to it (touched on that loop's thread only), and whether
        // every hand-off ran on that thread.
        let handed = loops.map { _ in LoopConfined<[TCPConnection]>([]) }
        let counts = Locked([0, 0])
        let offLoop = Locked(0)
        let acceptor = LoopConfined<TCPAcceptor?>(nil)
        let first = loops[0].loop
        let targets = loops.map(\.loop)
        let port = try loops[0].sync {
            let made = try TCPAcceptor(loop: first, host: "127.0.0.1", port: 0)
            for (index, target) in targets.enumerated() {
                made.addTarget(target) { connection in
                    if !target.inEventLoop || connection.loop !== target { offLoop.withLock { $0 += 1 } }
                    connection.delegate = Echo()
                    connection.startReading()
                    handed[index].value.append(connection)
                    counts.withLock { $0[index] += 1 }
                }
            }
            try made.start()
            acceptor.value = made
            return made.localPort
        }
        XCTAssertGreaterThan(port, 0)

        var clients = try (0..<4).map { _ in try BlockingClient(port: port) }
        XCTAssertTrue(eventually { counts.withLock { $0 } == [2, 2] }, "\(counts.withLock { $0 })")
        for (index, client) in clients.enumerated() {
            client.send("ping \(index)")
            XCTAssertEqual(String(decoding: client.receive(count: 6), as: UTF8.self), "ping \(index)")
        }

        // The first loop's two close: it has the fewest open now, so it takes the next two.
        // They count out as they start closing: a peer accepted in the same turn stays here.
        let openWhileClosing = try loops[0].sync {
            for connection in handed[0].value { connection.close() }
            return first.acceptedOpen.value.load(ordering: .relaxed)
        }
        XCTAssertEqual(openWhileClosing, 0, "connections that are closing no longer count")
        XCTAssertTrue(eventually { LiveCounts.connections == 2 })
        clients += try (0..<2).map { _ in try BlockingClient(port: port) }
        XCTAssertTrue(eventually { counts.withLock { $0 } == [4, 2] }, "\(counts.withLock { $0 })")
        XCTAssertEqual(offLoop.withLock { $0 }, 0)

        clients.removeAll()
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        // With none open, a tie: the acceptor's own loop keeps each peer, with no hop to the other.
        for expected in [[5, 2], [6, 2]] {
            var client: BlockingClient? = try BlockingClient(port: port)
            XCTAssertTrue(eventually { counts.withLock { $0 } == expected }, "\(counts.withLock { $0 })")
            client?.send("tie")
            XCTAssertEqual(client.map { String(decoding: $0.receive(count: 3), as: UTF8.self) }, "tie")
            client = nil
            XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        }
        try loops[0].sync { acceptor.value?.close() }
        for loop in loops { XCTAssertTrue(loop.stop()) }
        XCTAssertEqual(LiveCounts.handles, handlesBefore)
    }

    func testAPortInUseIsReported() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let acceptor = LoopConfined<TCPAcceptor?>(nil)
        let port = try runner.sync {
            let made = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: 0)
            acceptor.value = made
            return made.localPort
        }
        let isAddressInUse = try runner.sync { () -> Bool in
            do {
                _ = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: port)
                return false
            } catch let error as EventLoopError {
                return error.isAddressInUse
            }
        }
        XCTAssertTrue(isAddressInUse)
        try runner.sync { acceptor.value?.close() }
        XCTAssertTrue(runner.stop())
    }

    /// Accepted sockets get `TCP_NODELAY` from the listening socket, with no call of their own:
    /// without it small replies would wait for the peer's delayed ACK.
    func testAcceptedConnectionsHaveNagleOff() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let acceptor = LoopConfined<TCPAcceptor?>(nil)
        let noDelay = Locked<Int32?>(nil)
        let port = try runner.sync {
            let made = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: 0)
            try made.start { connection in
                var descriptor = uv_os_fd_t()
                var value: Int32 = -1
                var length = socklen_t(MemoryLayout<Int32>.size)
                if uv_fileno(UnsafeMutableRawPointer(connection.tcp).assumingMemoryBound(to: uv_handle_t.self), &descriptor) == 0,
                   getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0 {
                    noDelay.withLock { $0 = value }
                }
                connection.close()
            }
            acceptor.value = made
            return made.localPort
        }
        let client = try BlockingClient(port: port)
        XCTAssertTrue(eventually { noDelay.withLock { $0 } != nil })
        XCTAssertEqual(noDelay.withLock { $0 }, 1)
        _ = client
        try runner.sync { acceptor.value?.close() }
        XCTAssertTrue(runner.stop())
    }
}
