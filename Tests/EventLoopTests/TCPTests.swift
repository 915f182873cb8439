@testable import EventLoop
import Foundation
import NetworkTestSupport
import Synchronization
import XCTest

/// Echoes what it reads; answers the peer's FIN with its own after the echo.
private final class EchoDelegate: TCPConnectionDelegate {
    let closed: Locked<Int>
    init(closed: Locked<Int>) { self.closed = closed }
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) { connection.write(bytes) }
    func connectionDidReachEOF(_ connection: TCPConnection) { connection.finish() }
    func connectionDidClose(_ connection: TCPConnection) { closed.withLock { $0 += 1 } }
}

/// Counts reads; on "go" writes `burst` bytes at once.
private final class BurstDelegate: TCPConnectionDelegate {
    let reads: Locked<Int>
    let burst: Int
    let unsentLimit: Int?
    init(reads: Locked<Int>, burst: Int, unsentLimit: Int? = nil) {
        self.reads = reads
        self.burst = burst
        self.unsentLimit = unsentLimit
    }
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        reads.withLock { $0 += 1 }
        if bytes.first == UInt8(ascii: "g") {
            if let unsentLimit { connection.maxUnsentBytes = unsentLimit }
            let block = [UInt8](repeating: 0x61, count: 64 * 1024)
            for _ in 0..<(burst / block.count) { connection.write(block) }
        }
    }
    func connectionDidReachEOF(_ connection: TCPConnection) { connection.close() }
    func connectionDidClose(_ connection: TCPConnection) {}
}

final class TCPTests: XCTestCase {
    private func listen(_ runner: LoopThread, _ makeDelegate: @escaping @Sendable () -> any TCPConnectionDelegate,
                        connection: LoopConfined<TCPConnection?>? = nil) throws -> (Int, LoopConfined<TCPAcceptor?>) {
        let listener = LoopConfined<TCPAcceptor?>(nil)
        let loop = runner.loop
        let port = try runner.sync {
            let l = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: 0)
            try l.start { c in
                c.delegate = makeDelegate()
                connection?.value = c
                c.startReading()
            }
            listener.value = l
            return l.localPort
        }
        return (port, listener)
    }

    func testEchoAndCountsReturnToZero() throws {
        let handlesBefore = LiveCounts.handles
        let runner = try LoopThread()
        let closed = Locked(0)
        let (port, listener) = try listen(runner) { EchoDelegate(closed: closed) }
        XCTAssertGreaterThan(port, 0)
        do {
            let clients = try (0..<3).map { _ in try BlockingClient(port: port) }
            XCTAssertTrue(eventually { LiveCounts.connections == 3 })
            for (i, client) in clients.enumerated() {
                let message = "hello \(i) " + String(repeating: "x", count: 40_000)
                client.send(message)
                XCTAssertEqual(String(decoding: client.receive(count: message.utf8.count), as: UTF8.self), message)
                client.shutdownWrite()
                let rest = client.receiveUntilEOF()
                XCTAssertTrue(rest.eof)
                XCTAssertEqual(rest.bytes, [])
            }
        }
        XCTAssertTrue(eventually { closed.withLock { $0 } == 3 })
        XCTAssertEqual(LiveCounts.connections, 0)
        try runner.sync { listener.value?.close() }
        XCTAssertTrue(runner.stop())
        XCTAssertEqual(LiveCounts.handles, handlesBefore)
    }

    /// `openConnections()` walks the loop's handles: every accepted connection that is open,
    /// not the acceptor, not a timer, and not a connection already closing.
    func testOpenConnectionsListsTheLoopsOpenConnectionsOnly() throws {
        let handlesBefore = LiveCounts.handles
        let runner = try LoopThread()
        let loop = runner.loop
        let accepted = LoopConfined<[TCPConnection]>([])
        let listener = LoopConfined<TCPAcceptor?>(nil)
        let timer = LoopConfined<TimerHandle?>(nil)
        let port = try runner.sync {
            let acceptor = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: 0)
            try acceptor.start { connection in
                connection.delegate = EchoDelegate(closed: Locked(0))
                accepted.value.append(connection)
                connection.startReading()
            }
            listener.value = acceptor
            timer.value = try loop.scheduleTimer(after: .seconds(60)) {}
            return acceptor.localPort
        }
        let clients = try (0..<3).map { _ in try BlockingClient(port: port) }
        XCTAssertTrue(eventually { LiveCounts.connections == 3 })
        let (all, afterOneCloses): ([ObjectIdentifier], [ObjectIdentifier]) = try runner.sync {
            let all = loop.openConnections().map(ObjectIdentifier.init)
            accepted.value[1].close()
            return (all, loop.openConnections().map(ObjectIdentifier.init))
        }
        let ids = try runner.sync { accepted.value.map(ObjectIdentifier.init) }
        XCTAssertEqual(Set(all), Set(ids))
        XCTAssertEqual(all.count, 3)
        XCTAssertEqual(Set(afterOneCloses), Set([ids[0], ids[2]]))
        for client in clients { client.shutdownWrite() }
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        try runner.sync {
            listener.value?.close()
            timer.value?.cancel()
            accepted.value = []
        }
        XCTAssertTrue(runner.stop())
        XCTAssertEqual(LiveCounts.handles, handlesBefore)
    }

    func testListenOnBusyPortThrowsAddressInUse() throws {
        let runner = try LoopThread()
        let (port, _) = try listen(runner) { EchoDelegate(closed: Locked(0)) }
        let loop = runner.loop
        let failure: EventLoopError? = try runner.sync {
            do {
                let second = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: port)
                second.close()
                return nil
            } catch let error as EventLoopError {
                return error
            }
        }
        XCTAssertEqual(failure?.isAddressInUse, true)
        XCTAssertTrue(failure?.description.contains("address already in use") ?? false, "\(String(describing: failure))")
        XCTAssertTrue(runner.stop())
    }

    func testListenersResolveLocalhostToLoopback() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let acceptorPort: Int = try runner.sync {
            let acceptor = try TCPAcceptor(loop: loop, host: "localhost", port: 0)
            defer { acceptor.close() }
            return acceptor.localPort
        }
        XCTAssertGreaterThan(acceptorPort, 0)
        let unknown: EventLoopError? = try runner.sync {
            do {
                let acceptor = try TCPAcceptor(loop: loop, host: "no-such-host.invalid", port: 0)
                acceptor.close()
                return nil
            } catch let error as EventLoopError {
                return error
            }
        }
        XCTAssertNotNil(unknown, "a name that does not resolve is an error, not a crash")
        XCTAssertTrue(runner.stop())
    }

    func testBackpressurePausesReadingUntilOutputDrains() throws {
        let runner = try LoopThread()
        let reads = Locked(0)
        let connection = LoopConfined<TCPConnection?>(nil)
        // More than the kernel's socket buffers hold, so the write stays unfinished until we read.
        let burst = 32 << 20
        let (port, _) = try listen(runner, { BurstDelegate(reads: reads, burst: burst, unsentLimit: 2 * burst) }, connection: connection)
        let client = try BlockingClient(port: port)
        client.send("go")
        XCTAssertTrue(eventually { (try? runner.sync { connection.value?.isPausedForBackpressure ?? false }) == true })
        let readsWhilePaused = reads.withLock { $0 }
        client.send("more")
        usleep(200_000)
        XCTAssertEqual(reads.withLock { $0 }, readsWhilePaused, "no reads while paused")
        XCTAssertEqual(client.receive(count: burst).count, burst)
        XCTAssertTrue(eventually { (try? runner.sync { connection.value?.isPausedForBackpressure ?? true }) == false })
        XCTAssertTrue(eventually { reads.withLock { $0 } > readsWhilePaused }, "reading resumed after the drain")
        XCTAssertEqual(try runner.sync { connection.value?.unsentBytes ?? -1 }, 0)
        XCTAssertTrue(runner.stop())
        XCTAssertEqual(LiveCounts.connections, 0)
    }

    /// Writes flushed one at a time outside a read, the socket filling up under them: a lone
    /// chunk written in part (`WriteQueue.writeNow`'s one-chunk path) keeps its rest, and the
    /// peer reads every byte in order.
    func testLoneChunksWrittenInPartStillArriveWholeAndInOrder() throws {
        let runner = try LoopThread()
        let connection = LoopConfined<TCPConnection?>(nil)
        let (port, _) = try listen(runner, { BurstDelegate(reads: Locked(0), burst: 0) }, connection: connection)
        let client = try BlockingClient(port: port)
        XCTAssertTrue(eventually { (try? runner.sync { connection.value != nil }) == true })
        let writes = 2800   // 8.4 MB, more than both ends' socket buffers hold while the client waits
        let size = 3001   // not a divisor of the socket's buffers: writes end mid-chunk
        @Sendable func block(_ index: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0 &* 7) } }
        let partial = try runner.sync { () -> Bool in
            guard let tcp = connection.value else { return false }
            tcp.maxUnsentBytes = 16 << 20
            var sawPartial = false
            for index in 0..<writes {
                let before = tcp.unsentBytes
                tcp.write(block(index))
                tcp.flush()
                // Something of this write left and something stayed: a partial write of it.
                if tcp.unsentBytes > before, tcp.unsentBytes < before + size { sawPartial = true }
            }
            return sawPartial
        }
        XCTAssertTrue(partial, "the socket took part of a write")
        let expected = (0..<writes).flatMap(block)
        XCTAssertEqual(client.receive(count: expected.count), expected)
        XCTAssertTrue(eventually { (try? runner.sync { connection.value?.unsentBytes ?? -1 }) == 0 })
        XCTAssertTrue(runner.stop())
    }

    func testStuckPeerIsClosedPastTheHardLimit() throws {
        let runner = try LoopThread()
        let connection = LoopConfined<TCPConnection?>(nil)
        let (port, _) = try listen(runner, { BurstDelegate(reads: Locked(0), burst: 20 << 20) }, connection: connection)
        let client = try BlockingClient(port: port)
        client.setReceiveBuffer(4096)
        client.send("go")
        XCTAssertTrue(eventually { (try? runner.sync { connection.value?.isClosed ?? false }) == true })
        XCTAssertTrue(runner.stop())
    }

    /// `finish()` sends what is queued, then FIN, and ignores later writes. It holds the
    /// last bytes (MSG_MORE) for its `shutdown(2)` right after, so that they and the FIN
    /// travel in one segment: none is a FIN alone.
    func testFinishSendsQueuedBytesWithTheFINInOneSegment() throws {
        final class GreetAndFinish: TCPConnectionDelegate {
            func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
                connection.write("bye")
                connection.finish()
                connection.write("ignored")
            }
            func connectionDidReachEOF(_ connection: TCPConnection) {}
            func connectionDidClose(_ connection: TCPConnection) {}
        }
        let runner = try LoopThread()
        let (port, _) = try listen(runner) { GreetAndFinish() }
        let client = try BlockingClient(port: port)
        client.send("hi")
        let result = client.receiveUntilEOF()
        XCTAssertEqual(String(decoding: result.bytes, as: UTF8.self), "bye")
        XCTAssertTrue(result.eof)
        let segments = try XCTUnwrap(client.receivedSegments())
        // The SYN-ACK, the ACK of "hi" (sent at once: a connection's first data is acknowledged
        // without delay), then "bye" with the FIN.
        XCTAssertEqual(segments.withData, 1)
        XCTAssertEqual(segments.all - segments.withData, 2)
        client.shutdownWrite()
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        XCTAssertTrue(runner.stop())
    }
}
