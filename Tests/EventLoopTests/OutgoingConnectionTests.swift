@testable import EventLoop
import Foundation
import NetworkTestSupport
import XCTest

/// The server side: echoes, and closes at the peer's FIN.
private final class EchoServer: TCPConnectionDelegate {
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) { connection.write(bytes) }
    func connectionDidReachEOF(_ connection: TCPConnection) { connection.finish() }
    func connectionDidClose(_ connection: TCPConnection) {}
}

/// The client side: records what it reads, its failures, EOF and closes.
private final class RecordingClient: TCPConnectionDelegate {
    let received: Locked<[UInt8]>
    let events: Locked<[String]>
    init(received: Locked<[UInt8]>, events: Locked<[String]>) {
        self.received = received
        self.events = events
    }
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        let copy = Array(bytes)
        received.withLock { $0 += copy }
    }
    func connectionDidReachEOF(_ connection: TCPConnection) {
        events.withLock { $0.append("eof") }
        connection.close()
    }
    func connection(_ connection: TCPConnection, didFail error: EventLoopError) {
        let operation = error.operation
        events.withLock { $0.append("failed: \(operation)") }
    }
    func connectionDidClose(_ connection: TCPConnection) { events.withLock { $0.append("closed") } }
}

final class OutgoingConnectionTests: XCTestCase {
    func testConnectedClientWritesReadsAndCountsReturnToZero() throws {
        let handlesBefore = LiveCounts.handles
        let runner = try LoopThread()
        let loop = runner.loop
        let acceptor = LoopConfined<TCPAcceptor?>(nil)
        let port = try runner.sync {
            let made = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: 0)
            try made.start { connection in
                connection.delegate = EchoServer()
                connection.startReading()
            }
            acceptor.value = made
            return made.localPort
        }
        let received = Locked<[UInt8]>([])
        let events = Locked<[String]>([])
        let outcome = Locked<String?>(nil)
        let client = LoopConfined<TCPConnection?>(nil)
        let message = "hello " + String(repeating: "x", count: 100_000)
        let readStateBefore = try runner.sync {
            let made = try loop.connect(to: "127.0.0.1", port: port) { error in
                outcome.withLock { $0 = error.map { "\($0)" } ?? "connected" }
            }
            made.delegate = RecordingClient(received: received, events: events)
            // Still connecting: asking for reads changes nothing yet.
            made.startReading()
            client.value = made
            return made.readState
        }
        XCTAssertEqual(readStateBefore, .unconnected)
        XCTAssertTrue(eventually { outcome.withLock { $0 } == "connected" }, "\(String(describing: outcome.withLock { $0 }))")
        XCTAssertEqual(LiveCounts.connections, 2, "the server's connection and the client's")
        // Written and flushed from outside a read callback; the echo comes back.
        let readState = try runner.sync {
            client.value?.startReading()
            client.value?.write(message)
            client.value?.flush()
            return client.value?.readState
        }
        XCTAssertEqual(readState, .reading)
        XCTAssertTrue(eventually { received.withLock { $0.count } == message.utf8.count })
        XCTAssertEqual(String(decoding: received.withLock { $0 }, as: UTF8.self), message)
        try runner.sync { client.value?.finish() }
        XCTAssertTrue(eventually { events.withLock { $0 } == ["closed"] }, "\(events.withLock { $0 })")
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        try runner.sync { acceptor.value?.close() }
        XCTAssertTrue(runner.stop())
        XCTAssertEqual(LiveCounts.handles, handlesBefore)
    }
}

extension OutgoingConnectionTests {
    /// A port nothing listens on: bound by an acceptor, then closed (its socket closes in the
    /// close callback, a loop turn later).
    private func closedPort(_ runner: LoopThread) throws -> Int {
        let loop = runner.loop
        let acceptor = LoopConfined<TCPAcceptor?>(nil)
        let port = try runner.sync {
            let made = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: 0)
            acceptor.value = made
            let port = made.localPort
            made.close()
            return port
        }
        XCTAssertTrue(try eventually { try runner.sync { acceptor.value?.isClosed == true } })
        return port
    }

    func testRefusedConnectReportsTheErrorThenClosesOnce() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let port = try closedPort(runner)
        let events = Locked<[String]>([])
        let failure = Locked<EventLoopError?>(nil)
        try runner.sync {
            let client = try loop.connect(to: "127.0.0.1", port: port) { error in failure.withLock { $0 = error } }
            client.delegate = RecordingClient(received: Locked([]), events: events)
        }
        XCTAssertTrue(eventually { events.withLock { $0 } == ["closed"] }, "\(events.withLock { $0 })")
        XCTAssertEqual(failure.withLock { $0 }?.code, -ECONNREFUSED)
        XCTAssertEqual(failure.withLock { $0 }?.reason, "connection refused")
        XCTAssertEqual(LiveCounts.connections, 0, "a connection that never connected is never counted")
        XCTAssertTrue(runner.stop())
    }

    func testClosingWhileConnectingCancelsTheConnect() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let acceptor = LoopConfined<TCPAcceptor?>(nil)
        let port = try runner.sync {
            let made = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: 0)
            try made.start { $0.close() }
            acceptor.value = made
            return made.localPort
        }
        let events = Locked<[String]>([])
        let failure = Locked<EventLoopError?>(nil)
        try runner.sync {
            let client = try loop.connect(to: "127.0.0.1", port: port) { error in failure.withLock { $0 = error } }
            client.delegate = RecordingClient(received: Locked([]), events: events)
            client.close()
        }
        XCTAssertTrue(eventually { events.withLock { $0 } == ["closed"] }, "\(events.withLock { $0 })")
        XCTAssertEqual(failure.withLock { $0 }?.code, -ECANCELED)
        try runner.sync { acceptor.value?.close() }
        XCTAssertTrue(runner.stop())
    }

    func testAnAddressThatDoesNotResolveThrowsAndLeavesNothingOpen() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let handles = try runner.sync { loop.handleCount }
        let thrown: EventLoopError? = try runner.sync {
            do {
                _ = try loop.connect(to: "no-such-host.invalid", port: 80) { _ in }
                return nil
            } catch let error as EventLoopError {
                return error
            }
        }
        XCTAssertNotNil(thrown)
        XCTAssertEqual(try runner.sync { loop.handleCount }, handles)
        XCTAssertTrue(runner.stop())
    }
}

/// The read side's transitions, one event at a time.
final class ReadStateTests: XCTestCase {
    typealias State = TCPConnection.ReadState

    func testReadingWaitsForThePeerAndTheDelegate() {
        XCTAssertNil(State.unconnected.next(after: .wanted, paused: false), "no peer yet: nothing to read")
        XCTAssertEqual(State.unconnected.next(after: .established, paused: false), .notStarted)
        XCTAssertNil(State.notStarted.next(after: .outputChanged, paused: true), "backpressure alone starts nothing")
        XCTAssertEqual(State.notStarted.next(after: .wanted, paused: false), .reading)
        XCTAssertEqual(State.notStarted.next(after: .wanted, paused: true), .stopped)
    }

    func testBackpressureStopsAndResumesReading() {
        XCTAssertEqual(State.reading.next(after: .outputChanged, paused: true), .stopped)
        XCTAssertEqual(State.stopped.next(after: .outputChanged, paused: false), .reading)
        XCTAssertNil(State.reading.next(after: .outputChanged, paused: false))
        XCTAssertNil(State.stopped.next(after: .wanted, paused: true))
    }

    func testThePeersFINEndsReadingForGood() {
        XCTAssertEqual(State.reading.next(after: .peerFinished, paused: false), .peerFinished)
        XCTAssertEqual(State.stopped.next(after: .peerFinished, paused: true), .peerFinished)
        XCTAssertNil(State.peerFinished.next(after: .wanted, paused: false))
        XCTAssertNil(State.peerFinished.next(after: .outputChanged, paused: false))
        XCTAssertNil(State.reading.next(after: .established, paused: false), "established happens once")
    }
}
