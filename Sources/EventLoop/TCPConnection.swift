import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Receives a connection's events on the loop thread.
public protocol TCPConnectionDelegate: AnyObject {
    /// Bytes arrived. They live in the loop's shared read buffer: copy what must outlive the call.
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer)
    /// The peer finished sending (FIN). Reading has stopped; writing still works.
    func connectionDidReachEOF(_ connection: TCPConnection)
    /// The connection is closed and its memory freed; called exactly once.
    func connectionDidClose(_ connection: TCPConnection)
    /// Unsent output fell back to the low-water mark after backpressure paused reading.
    func connectionDidDrain(_ connection: TCPConnection)
    /// The deadline set with `setDeadline(after:)` passed.
    func connectionDeadlinePassed(_ connection: TCPConnection)
}

/// Defaults for the optional delegate methods.
public extension TCPConnectionDelegate {
    func connectionDidDrain(_ connection: TCPConnection) {}
    func connectionDeadlinePassed(_ connection: TCPConnection) {}
}

/// One accepted TCP connection with a write queue and backpressure.
///
/// Writes are copied into pooled chunks and queued; `flush()` hands up to `maxBuffersPerWrite`
/// chunks to a single `uv_write`, and only one write is in flight at a time, so writes made
/// while one is in flight are coalesced into the next. Once the unsent bytes pass
/// `highWaterMark` the connection stops reading from the peer and resumes when they drop to
/// `lowWaterMark`; past `maxUnsentBytes` it gives up on the peer and closes.
///
/// With a `filter` (TLS), reads are decoded before the delegate sees them, and writes are staged
/// and encoded at `flush()`, so the writes of one turn become as few records as possible.
///
/// `flush()` first tries to write synchronously (`uv_try_write`): the common small message
/// leaves at once and its chunks go straight back to the pool, so an idle connection holds
/// no output chunk and a burst of closes does not park one chunk per connection. Inside a
/// read callback `flush()` waits for the callback's end, so the answers to everything one
/// read brought leave in one system call.
///
/// Each connection has one deadline (`setDeadline(after:)`) on the loop's shared timer; the
/// delegate uses it for its timeouts and the connection itself for the linger after FIN.
public final class TCPConnection: LoopHandle {
    private enum OutputState { case open, finishing, shutdownSent }

    // Declared so the flags fill the tail of `LoopHandle`'s fields and the limits are 32-bit,
    // and the filter and its staged writes share one optional object: every connection holds
    // one of these, and at 128 bytes it takes a 144-byte malloc block.

    // An idle connection holds no request: the write request comes from the loop's pool for
    // the one write in flight.
    private var outputState = OutputState.open
    private var wantsReading = false
    private var isReading = false
    /// True while reading is paused because the peer does not take our output.
    public private(set) var isPausedForBackpressure = false
    /// Reading resumed inside `flush()` (a synchronous write drained the output); the delegate
    /// hears of it after the next write callback, never from inside its own `flush()` call.
    private var drainUnnotified = false
    /// True while the delegate handles a read: its flushes wait for the one after it.
    private var isDeliveringRead = false
    /// True once the peer sent FIN.
    public private(set) var peerFinished = false
    private var accepted = false
    private var highWaterMarkStorage: UInt32 = 1 << 20
    private var lowWaterMarkStorage: UInt32 = 256 << 10
    private var maxUnsentBytesStorage: UInt32 = 16 << 20
    private var lingerMilliseconds: UInt32 = 2000
    /// This connection's place in the loop's deadline heap (-1: none armed).
    private var deadlineSlot: Int32 = -1

    /// The object told about reads, EOF and close; released after `connectionDidClose`.
    public var delegate: (any TCPConnectionDelegate)?
    /// Decodes what arrives and encodes what is written (TLS); set before `startReading()`.
    public var filter: (any TCPStreamFilter)? {
        get { filtering?.filter }
        set {
            let staged = filtering?.staged ?? []
            filtering = newValue.map { Filtering($0) }
            if let filtering {
                filtering.staged = staged
            } else {
                dropStaged(staged)
            }
        }
    }
    /// The filter and the bytes written for it, when there is one.
    private var filtering: Filtering?

    static let maxBuffersPerWrite = 64

    private var queued: [OutputChunk] = []
    private var inFlight: [OutputChunk] = []
    /// Bytes written but not yet confirmed by a write callback.
    public private(set) var unsentBytes = 0
    /// The loop time (ms) of this connection's deadline; kept by `ConnectionDeadlines`.
    var deadlineDue: UInt64 = 0
    /// The acceptor's count of open connections on this loop, decremented in the close
    /// callback after the delegate's (a shared counter, not a closure per connection).
    var openCount: OpenConnectionCount?

    /// Unsent bytes above which reading pauses (at most 4 GiB).
    public var highWaterMark: Int {
        get { Int(highWaterMarkStorage) }
        set { highWaterMarkStorage = UInt32(clamping: newValue) }
    }
    /// Unsent bytes at or below which paused reading resumes (at most 4 GiB).
    public var lowWaterMark: Int {
        get { Int(lowWaterMarkStorage) }
        set { lowWaterMarkStorage = UInt32(clamping: newValue) }
    }
    /// Unsent bytes above which the peer is considered stuck and the connection closes (at most 4 GiB).
    public var maxUnsentBytes: Int {
        get { Int(maxUnsentBytesStorage) }
        set { maxUnsentBytesStorage = UInt32(clamping: newValue) }
    }
    /// How long `finish()` waits for the peer's FIN after sending ours (whole milliseconds,
    /// at most 49 days).
    public var lingerTimeout: Duration {
        get { .milliseconds(lingerMilliseconds) }
        set {
            let milliseconds = (newValue / .milliseconds(1)).rounded(.up)
            lingerMilliseconds = milliseconds <= 0 ? 0 : milliseconds >= Double(UInt32.max) ? .max : UInt32(milliseconds)
        }
    }
    /// This connection's place in the loop's deadline heap (-1: none armed); kept by `ConnectionDeadlines`.
    var deadlineIndex: Int {
        get { Int(deadlineSlot) }
        set { deadlineSlot = Int32(truncatingIfNeeded: newValue) }
    }

    init(loop: EventLoop) throws {
        super.init(loop: loop, type: UV_TCP)
        try finishInit(status: uv_tcp_init(loop.uvLoop, tcp), operation: "uv_tcp_init")
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> { rawHandle.assumingMemoryBound(to: uv_tcp_t.self) }

    /// The peer's IP address as text (`127.0.0.1`, `::1`), `nil` when the socket has none.
    public var peerAddress: String? {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> String? in
                guard uv_tcp_getpeername(tcp, address, &length) == 0 else { return nil }
                var name = [CChar](repeating: 0, count: 64)
                guard uv_ip_name(address, &name, name.count) == 0 else { return nil }
                return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
    var stream: UnsafeMutablePointer<uv_stream_t> { rawHandle.assumingMemoryBound(to: uv_stream_t.self) }

    func didAccept() {
        accepted = true
        LiveCounts.connectionOpened()
        uv_tcp_nodelay(tcp, 1)
    }

    /// Takes over `descriptor`, a socket accepted outside libuv (see `TCPAcceptor`); false
    /// when libuv refuses it (the caller still owns the descriptor then).
    func adopt(socket descriptor: Int32) -> Bool {
        guard uv_tcp_open(tcp, uv_os_sock_t(descriptor)) == 0 else { return false }
        didAccept()
        return true
    }

    // MARK: reading

    /// Starts (or resumes) delivering reads to the delegate.
    public func startReading() {
        wantsReading = true
        updateReading()
    }

    /// Stops delivering reads until `startReading()`.
    public func stopReading() {
        wantsReading = false
        updateReading()
    }

    private func updateReading() {
        guard !isClosing else { return }
        let should = wantsReading && !isPausedForBackpressure && !peerFinished
        if should && !isReading {
            if uv_read_start(stream, connectionAllocate, connectionDidRead) == 0 { isReading = true }
        } else if !should && isReading {
            uv_read_stop(stream)
            isReading = false
        }
    }

    fileprivate func didRead(_ count: Int) {
        if count > 0 {
            guard outputState == .open else { return } // finishing: the peer's bytes are discarded
            let bytes = UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count])
            isDeliveringRead = true
            if let filter = filtering?.filter {
                receive(bytes, through: filter)
            } else {
                let delegate = self.delegate // kept alive even if it replaces itself during the call
                delegate?.connection(self, didRead: bytes)
            }
            isDeliveringRead = false
            flush()
            notifyDrainIfDue()
        } else if count == Int(UV_EOF.rawValue) {
            peerFinished = true
            updateReading()
            if outputState == .open {
                delegate?.connectionDidReachEOF(self)
            } else if outputState == .shutdownSent {
                close()
            }
        } else if count < 0 {
            close()
        }
    }

    private func receive(_ bytes: UnsafeRawBufferPointer, through filter: any TCPStreamFilter) {
        do {
            try filter.receive(bytes, scratch: loop.readBuffer) { decoded in
                guard outputState == .open, !isClosing else { return false }
                // Read the delegate anew for each piece: an upgrade replaces it mid-batch.
                let delegate = self.delegate
                delegate?.connection(self, didRead: decoded)
                return outputState == .open && !isClosing
            }
        } catch {
            abandonOutput()
            return
        }
        takeFilterOutput()
    }

    // MARK: writing

    /// Queues a copy of `bytes`; call `flush()` (done for you after each read callback).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard outputState == .open, !isClosing, !bytes.isEmpty else { return }
        if let filtering { append(bytes, to: &filtering.staged) } else { append(bytes, to: &queued) }
        unsentBytes += bytes.count
        checkUnsentBytes()
    }

    private func append(_ bytes: UnsafeRawBufferPointer, to list: inout [OutputChunk]) {
        var rest = bytes
        while !rest.isEmpty {
            if list.last.map({ $0.freeSpace == 0 }) ?? true { list.append(loop.chunkPool.take()) }
            let taken = list[list.count - 1].append(rest)
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
    }

    private func checkUnsentBytes() {
        if unsentBytes > maxUnsentBytes {
            close()
        } else if unsentBytes > highWaterMark && !isPausedForBackpressure {
            isPausedForBackpressure = true
            updateReading()
        }
    }

    /// Queues a copy of `bytes`.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Queues the UTF-8 bytes of `string`.
    public func write(_ string: String) {
        var string = string
        string.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes what is queued: at once as far as the socket takes it, the rest through one
    /// `uv_write` unless a write is already in flight (its callback flushes again).
    /// Once the output is finishing and all of it left, sends FIN.
    public func flush() {
        guard !isClosing, !isDeliveringRead, inFlight.isEmpty else { return }
        if let filtering, !filtering.staged.isEmpty { encodeStaged() }
        guard !isClosing else { return }
        if !queued.isEmpty { writeNow() }
        guard !isClosing, inFlight.isEmpty else { return }
        if queued.isEmpty {
            if outputState == .finishing { sendShutdown() }
            return
        }
        let count = fillWriteBuffers()
        inFlight.append(contentsOf: queued[0..<count])
        queued.removeFirst(count)
        let writeRequest = loop.writeRequests.take()
        writeRequest.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        if uv_write(writeRequest, stream, loop.writeBuffers, UInt32(count), connectionDidWrite) < 0 {
            loop.writeRequests.give(writeRequest)  // no callback will come for it
            close()
        }
    }

    /// Points the loop's `uv_buf_t` scratch array at the first queued chunks; returns how many.
    private func fillWriteBuffers() -> Int {
        let count = min(queued.count, Self.maxBuffersPerWrite)
        let buffers = loop.writeBuffers  // uv_write and uv_try_write copy or use it before returning
        for index in 0..<count {
            let chunk = queued[index]
            buffers[index] = uv_buf_init(chunk.storage.assumingMemoryBound(to: CChar.self), UInt32(chunk.count))
        }
        return count
    }

    /// Writes queued chunks synchronously while the socket takes them; what it took goes
    /// back to the pool (a partly written chunk keeps its rest). It tells the delegate
    /// nothing, so it never runs the delegate's code inside the delegate's own `flush()`.
    private func writeNow() {
        while !queued.isEmpty {
            let count = fillWriteBuffers()
            let offered = queued[0..<count].reduce(0) { $0 + $1.count }
            let written = uv_try_write(stream, loop.writeBuffers, UInt32(count))
            guard written > 0 else { return }  // EAGAIN, or an error the uv_write after it reports
            var left = Int(written)
            while left > 0, let chunk = queued.first {
                if chunk.count <= left {
                    left -= chunk.count
                    // Emptied, the array lets its storage go: an idle connection keeps none.
                    if queued.count == 1 { queued = [] } else { queued.removeFirst() }
                    loop.chunkPool.give(chunk)
                } else {
                    chunk.dropFirst(left)
                    left = 0
                }
            }
            unsentBytes -= Int(written)
            if isPausedForBackpressure && unsentBytes <= lowWaterMark {
                // The caller sees the flag (a paused HTTP pipeline checks it after each answer);
                // the delegate is told after the next write callback.
                isPausedForBackpressure = false
                drainUnnotified = true
                updateReading()
            }
            if Int(written) < offered { return }  // the socket is full
        }
    }

    /// Tells the delegate that reading resumed in a flush, from the connection's own callbacks
    /// (the end of a read, a write callback), never from inside the delegate's code.
    private func notifyDrainIfDue() {
        guard drainUnnotified, !isClosing else { return }
        drainUnnotified = false
        delegate?.connectionDidDrain(self)
    }

    /// Runs the staged bytes through the filter into the write queue.
    private func encodeStaged() {
        guard let filtering else { return }
        var failed = false
        for chunk in filtering.staged {
            unsentBytes -= chunk.count
            if !failed {
                do {
                    try filtering.filter.send(UnsafeRawBufferPointer(start: chunk.storage, count: chunk.count))
                } catch {
                    failed = true
                }
            }
            loop.chunkPool.give(chunk)
        }
        filtering.staged.removeAll(keepingCapacity: true)
        if failed { return close() }
        takeFilterOutput()
    }

    /// Gives written bytes that will not be sent back to the pool.
    private func dropStaged(_ staged: [OutputChunk]) {
        for chunk in staged {
            unsentBytes -= chunk.count
            loop.chunkPool.give(chunk)
        }
    }

    /// Moves what the filter produced (records, handshake messages, alerts) into the write queue.
    private func takeFilterOutput() {
        guard let filter = filtering?.filter, !isClosing, outputState != .shutdownSent else { return }
        var produced = 0
        while true {
            if queued.last.map({ $0.freeSpace == 0 }) ?? true { queued.append(loop.chunkPool.take()) }
            let chunk = queued[queued.count - 1]
            let space = chunk.freeSpace
            let count = filter.readOutput(into: UnsafeMutableRawBufferPointer(start: chunk.storage + chunk.count, count: space))
            chunk.count += count
            produced += count
            if count < space { break }
        }
        if let last = queued.last, last.count == 0 { loop.chunkPool.give(queued.removeLast()) }
        unsentBytes += produced
        checkUnsentBytes()
    }

    /// The filter failed: send what it still produced (an alert), then FIN, then close.
    private func abandonOutput() {
        if let filtering {
            dropStaged(filtering.staged)
            filtering.staged.removeAll()
        }
        takeFilterOutput()
        guard outputState == .open, !isClosing else { return }
        outputState = .finishing
        flush()
    }

    fileprivate func didWrite(status: Int32) {
        var sent = 0
        for chunk in inFlight {
            sent += chunk.count
            loop.chunkPool.give(chunk)
        }
        inFlight.removeAll()
        guard status >= 0 else {
            unsentBytes -= sent
            close()
            return
        }
        guard !isClosing else { return }
        unsentBytes -= sent
        if !queued.isEmpty || !(filtering?.staged.isEmpty ?? true) { flush() }
        guard !isClosing else { return }
        // Backpressure resumes below the low-water mark, here or already in that flush.
        if isPausedForBackpressure && unsentBytes <= lowWaterMark {
            isPausedForBackpressure = false
            drainUnnotified = true
            updateReading()
        }
        notifyDrainIfDue()
        guard !isClosing else { return }
        if outputState == .finishing, inFlight.isEmpty, queued.isEmpty { sendShutdown() }
    }

    // MARK: closing

    /// Sends what is queued, then FIN, then closes once the peer's FIN arrives or after
    /// `lingerTimeout`. Later writes are ignored and further input is discarded.
    public func finish() {
        guard outputState == .open, !isClosing else { return }
        outputState = .finishing
        wantsReading = true
        updateReading()
        if let filter = filtering?.filter {
            encodeStaged()
            guard !isClosing else { return }
            filter.finishOutput()
            takeFilterOutput()
        }
        flush()  // sends FIN once the queue is empty, now or after the write in flight
    }

    /// Sends FIN; called once nothing is queued or in flight. With nothing left to write,
    /// `shutdown(2)` goes at once: `uv_shutdown` would watch for writability first (an
    /// epoll change and a loop turn per connection).
    private func sendShutdown() {
        guard outputState == .finishing else { return }
        outputState = .shutdownSent
        var descriptor = uv_os_fd_t()
        if peerFinished || uv_fileno(uvHandle, &descriptor) != 0 || shutdown(descriptor, Int32(SHUT_WR)) != 0 {
            close()
            return
        }
        // Waits for the peer's FIN at most the linger.
        setDeadline(after: lingerTimeout)
    }

    // MARK: deadline

    /// Arms the connection's one deadline: `connectionDeadlinePassed` runs after `delay`
    /// (at least 1 ms), replacing any deadline armed before. The linger after FIN uses it too.
    public func setDeadline(after delay: Duration) {
        guard !isClosing else { return }
        loop.deadlines.schedule(self, due: loop.nowMilliseconds + max(1, delay.milliseconds))
    }

    /// Disarms the deadline.
    public func clearDeadline() {
        loop.deadlines.remove(self)
    }

    /// From the loop's deadlines: the linger ends, or the delegate's timeout passed.
    func deadlinePassed() {
        guard !isClosing else { return }
        if outputState == .shutdownSent {
            close()
        } else {
            delegate?.connectionDeadlinePassed(self)
        }
    }

    override func willClose() {
        loop.deadlines.remove(self)
        isReading = false
    }

    override func didClose() {
        // Pending write and shutdown callbacks (ECANCELED) ran before this close callback.
        for chunk in queued + inFlight + (filtering?.staged ?? []) { loop.chunkPool.give(chunk) }
        queued.removeAll()
        inFlight.removeAll()
        unsentBytes = 0
        filtering = nil
        if accepted {
            LiveCounts.connectionClosed()
            loop.heapTrimmer.connectionClosed()
        }
        let delegate = self.delegate
        self.delegate = nil
        delegate?.connectionDidClose(self)
        openCount?.value.subtract(1, ordering: .relaxed)
        openCount = nil
    }
}

private func connectionAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int,
                                _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    guard let buffer else { return }
    guard let connection = LoopHandle.owner(of: handle.map(UnsafeMutableRawPointer.init)) as? TCPConnection else {
        buffer.pointee = uv_buf_init(nil, 0)
        return
    }
    let readBuffer = connection.loop.readBuffer
    buffer.pointee = uv_buf_init(readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(readBuffer.count))
}

private func connectionDidRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int,
                               _ buffer: UnsafePointer<uv_buf_t>?) {
    (LoopHandle.owner(of: stream.map(UnsafeMutableRawPointer.init)) as? TCPConnection)?.didRead(count)
}

private func connectionDidWrite(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    guard let request, let data = request.pointee.data else { return }
    let connection = Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue()
    connection.loop.writeRequests.give(request)
    connection.didWrite(status: status)
}


/// A connection's filter with the bytes written since the last flush, which it encodes then.
private final class Filtering {
    let filter: any TCPStreamFilter
    var staged: [OutputChunk] = []

    init(_ filter: any TCPStreamFilter) {
        self.filter = filter
    }
}
