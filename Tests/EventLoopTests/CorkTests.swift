import CLibUV
@testable import EventLoop
import NetworkTestSupport
import XCTest

/// For each byte `n` it reads, writes `n` blocks of `blockSize` bytes as frames: block `i` is a
/// 2-byte header (i, little-endian) and a payload of `i % 251`, so order and content show.
private final class BlockWriter: TCPConnectionDelegate {
    let blockSize: Int
    let sendBuffer: Int32?
    let reads: Locked<Int>
    private var next = 0

    init(blockSize: Int, sendBuffer: Int32? = nil, reads: Locked<Int>) {
        self.blockSize = blockSize
        self.sendBuffer = sendBuffer
        self.reads = reads
    }

    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        if var size = sendBuffer { uv_send_buffer_size(connection.uvHandle, &size) }
        for count in bytes {
            for _ in 0..<Int(count) {
                let payload = [UInt8](repeating: UInt8(next % 251), count: blockSize - 2)
                payload.withUnsafeBytes { connection.write(header: UInt64(next & 0xFFFF), count: 2, payload: $0) }
                next += 1
            }
        }
        reads.withLock { $0 += 1 }
    }
    func connectionDidReachEOF(_ connection: TCPConnection) { connection.close() }
    func connectionDidClose(_ connection: TCPConnection) {}
}

/// The bytes `BlockWriter` writes for blocks `range`.
private func blocks(_ range: Range<Int>, size: Int) -> [UInt8] {
    range.flatMap { index in [UInt8(index & 0xFF), UInt8(index >> 8 & 0xFF)] + [UInt8](repeating: UInt8(index % 251), count: size - 2) }
}

/// What a connection writes while it answers a read gathers in the loop's cork buffer and leaves
/// in one system call; past the buffer, and past what the socket takes, it goes through the queue.
/// (`TCPTests.testFinishSendsQueuedBytesThenFIN` finishes inside a read: the corked bytes, then FIN.)
final class CorkTests: XCTestCase {
    private func listen(_ runner: LoopThread, _ delegate: @escaping @Sendable () -> any TCPConnectionDelegate,
                        connection: LoopConfined<TCPConnection?>) throws -> Int {
        let loop = runner.loop
        return try runner.sync {
            let acceptor = try TCPAcceptor(loop: loop, host: "127.0.0.1", port: 0)
            try acceptor.start { made in
                made.delegate = delegate()
                connection.value = made
                made.startReading()
            }
            return acceptor.localPort
        }
    }

    func testWritesOfOneReadLeaveInOrderWithinAndPastTheCorkBuffer() throws {
        let runner = try LoopThread()
        let connection = LoopConfined<TCPConnection?>(nil)
        let reads = Locked(0)
        let port = try listen(runner, { BlockWriter(blockSize: 4000, reads: reads) }, connection: connection)
        let client = try BlockingClient(port: port)
        // 3 blocks fit the 16 KiB cork buffer; 10 do not (the fifth and later go to the queue).
        client.send([3])
        XCTAssertEqual(client.receive(count: 3 * 4000), blocks(0..<3, size: 4000))
        client.send([10])
        XCTAssertEqual(client.receive(count: 10 * 4000), blocks(3..<13, size: 4000))
        XCTAssertTrue(eventually { (try? runner.sync { connection.value?.unsentBytes ?? -1 }) == 0 })
        XCTAssertEqual(try runner.sync { connection.value!.loop.cork.pointee.count }, 0, "the cork buffer is empty between reads")
        XCTAssertTrue(runner.stop())
        XCTAssertEqual(LiveCounts.connections, 0)
    }

    func testCorkedBytesTheSocketDoesNotTakeWaitInTheQueue() throws {
        let runner = try LoopThread()
        let connection = LoopConfined<TCPConnection?>(nil)
        let reads = Locked(0)
        let port = try listen(runner, { BlockWriter(blockSize: 4000, sendBuffer: 4096, reads: reads) }, connection: connection)
        let client = try BlockingClient(port: port)
        client.setReceiveBuffer(4096)
        // Four blocks a read (16,000 bytes, all in the cork buffer) while the client reads
        // nothing, until the socket takes only part of them: the rest is queued.
        var sent = 0
        var unsent = 0
        while sent < 200 && unsent == 0 {
            client.send([4])
            sent += 1
            XCTAssertTrue(eventually { reads.withLock { $0 } == sent })
            unsent = try runner.sync { connection.value?.unsentBytes ?? -1 }
        }
        XCTAssertGreaterThan(unsent, 0, "the socket took every byte of \(sent) reads")
        XCTAssertLessThanOrEqual(unsent, 16_000)
        // A read while that rest waits: its blocks are queued after it.
        client.send([4])
        sent += 1
        XCTAssertEqual(client.receive(count: sent * 4 * 4000), blocks(0..<(sent * 4), size: 4000))
        XCTAssertTrue(eventually { (try? runner.sync { connection.value?.unsentBytes ?? -1 }) == 0 })
        XCTAssertTrue(runner.stop())
        XCTAssertEqual(LiveCounts.connections, 0)
    }

    func testCloseInsideAReadDropsTheCorkedBytes() throws {
        final class AnswerAndClose: TCPConnectionDelegate {
            func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
                connection.write("never sent")
                connection.close()
            }
            func connectionDidReachEOF(_ connection: TCPConnection) {}
            func connectionDidClose(_ connection: TCPConnection) {}
        }
        let runner = try LoopThread()
        let connection = LoopConfined<TCPConnection?>(nil)
        let port = try listen(runner, { AnswerAndClose() }, connection: connection)
        let client = try BlockingClient(port: port)
        client.send("question")
        let result = client.receiveUntilEOF()
        XCTAssertEqual(result.bytes, [])
        XCTAssertTrue(result.eof)
        XCTAssertTrue(eventually { LiveCounts.connections == 0 })
        XCTAssertEqual(try runner.sync { connection.value!.loop.cork.pointee.count }, 0)
        XCTAssertTrue(runner.stop())
    }
}
