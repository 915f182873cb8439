import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection, accepted or connected, with a write queue and backpressure.
///
/// Writes are copied into pooled chunks of a `WriteQueue`; `flush()` first tries to write
/// synchronously (`uv_try_write`): the common small message leaves at once and its chunks go
/// straight back to the pool, so an idle connection holds no output chunk and a burst of
/// closes does not park one chunk per connection. The rest goes to one `uv_write`; only one
/// write is in flight at a time, so writes made meanwhile are coalesced into the next. Inside
/// a read callback `flush()` waits for the callback's end, so the answers to everything one
/// read brought leave in one system call; when nothing was waiting, they gather in the loop's
/// `CorkBuffer` and are written from there, with no chunk taken or queued.
///
/// Once the unsent bytes pass `highWaterMark` the connection stops reading from the peer and
/// resumes when they drop to `lowWaterMark`; past `maxUnsentBytes` it gives up on the peer and
/// closes. With a `filter` (TLS), reads are decoded before the delegate sees them, and writes
/// are staged (`FilterStaging`) and encoded at `flush()`.
///
/// Each connection has one deadline (`setDeadline(after:)`) on the loop's shared timer; the
/// delegate uses it for its timeouts and the connection itself for the linger after FIN.
public final class TCPConnection: LoopHandle {
    // Declared so the two states and the flag fill the tail of `LoopHandle`'s fields and the
    // 32-bit values follow them, and the filter and its staged writes share one optional
    // object: every connection holds one of these, and with its `uv_tcp_t` (`LoopHandle`) at
    // 340 bytes it takes a 352-byte malloc block (EventLoopLayoutTests). An idle connection
    // holds no request and no list of chunks in flight: both come from the loop's pool
    // (`PendingWrite`) for the one write in flight.
    // `@exclusivity(unchecked)`: the fields are touched on the loop thread only, and no access
    // spans a call that reaches the same field (WriteQueue's methods take no closures); the
    // run-time checks cost about 1,500 instructions per message here.
    @exclusivity(unchecked) private(set) var readState = ReadState.unconnected
    @exclusivity(unchecked) var outputState = OutputState.open
    /// Counted in the loop's `acceptedOpen` (an acceptor handed it over): counted out when it
    /// starts closing. A flag and the loop's one counter, not a reference per connection.
    @exclusivity(unchecked) var countedAsAccepted = false
    @exclusivity(unchecked) var lingerMilliseconds: UInt32 = 2000
    /// This connection's place in the loop's deadline heap (-1: none armed).
    @exclusivity(unchecked) var deadlineSlot: Int32 = -1

    @exclusivity(unchecked) private var storedDelegate: (any TCPConnectionDelegate)?
    /// The filter and the bytes written for it, when there is one.
    @exclusivity(unchecked) var staging: FilterStaging?
    @exclusivity(unchecked) var output = WriteQueue()

    /// The object told about reads, EOF and close; released after `connectionDidClose`.
    public var delegate: (any TCPConnectionDelegate)? {
        get { storedDelegate }
        // Not inlined: a store inlined into another module came with a dynamic exclusivity
        // check (about 76 instructions; twice per WebSocket session) that this module omits.
        @inline(never) set { storedDelegate = newValue }
    }

    /// True while reading is paused because the peer does not take our output.
    public var isPausedForBackpressure: Bool { output.backpressure == .paused }
    /// True once the peer sent FIN.
    public var peerFinished: Bool { readState == .peerFinished }
    /// Bytes written but not yet confirmed by a write callback.
    public var unsentBytes: Int { output.unsentBytes }

    /// Unsent bytes above which reading pauses (at most 4 GiB).
    public var highWaterMark: Int {
        get { Int(output.highWaterMark) }
        set { output.highWaterMark = UInt32(clamping: newValue) }
    }
    /// Unsent bytes at or below which paused reading resumes (at most 4 GiB).
    public var lowWaterMark: Int {
        get { Int(output.lowWaterMark) }
        set { output.lowWaterMark = UInt32(clamping: newValue) }
    }
    /// Unsent bytes above which the peer is considered stuck and the connection closes (at most 4 GiB).
    public var maxUnsentBytes: Int {
        get { Int(output.maxUnsentBytes) }
        set { output.maxUnsentBytes = UInt32(clamping: newValue) }
    }
    init(loop: EventLoop) throws {
        super.init(loop: loop, type: UV_TCP)
        try finishInit(status: uv_tcp_init(loop.uvLoop, tcp), operation: "uv_tcp_init")
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> { rawHandle.assumingMemoryBound(to: uv_tcp_t.self) }
    var stream: UnsafeMutablePointer<uv_stream_t> { rawHandle.assumingMemoryBound(to: uv_stream_t.self) }

    /// True on the loop's thread (`loop.inEventLoop`, without retaining the loop).
    @inlinable public var inEventLoop: Bool { loop.inEventLoop }

    /// The socket has a peer (accepted, or connected by `EventLoop.connect`): counted live from
    /// now. Nagle's algorithm is turned off unless the socket has it off already.
    func didEstablish(noDelayInherited: Bool = false) {
        moveReading(.established)
        LiveCounts.connectionOpened()
        if !noDelayInherited { uv_tcp_nodelay(tcp, 1) }
    }

    /// Takes over `descriptor`, a socket accepted outside libuv (see `TCPAcceptor`); false
    /// when libuv refuses it (the caller still owns the descriptor then). Its `TCP_NODELAY`
    /// came from the listening socket (Linux copies it to each accepted socket), so no
    /// `setsockopt` is made per connection.
    func adopt(socket descriptor: Int32) -> Bool {
        guard uv_tcp_open(tcp, uv_os_sock_t(descriptor)) == 0 else { return false }
        didEstablish(noDelayInherited: true)
        return true
    }

    // MARK: reading

    /// Starts (or resumes) delivering reads to the delegate. A connection still connecting
    /// ignores it: start reading in `EventLoop.connect`'s completion.
    public func startReading() {
        moveReading(.wanted)
    }

    /// The one place the read side changes state and libuv's reading starts or stops.
    func moveReading(_ event: ReadState.Event) {
        guard !isClosing, let next = readState.next(after: event, paused: output.backpressure == .paused) else { return }
        if next == .reading && readState != .reading {
            // Refused: the state says stopped, and the next output change tries again.
            guard uv_read_start(stream, connectionAllocate, connectionDidRead) == 0 else {
                readState = .stopped
                return
            }
        } else if next != .reading && readState == .reading {
            uv_read_stop(stream)
        }
        readState = next
    }

    fileprivate func didRead(_ count: Int) {
        if count > 0 {
            guard outputState == .open else { return } // finishing: the peer's bytes are discarded
            let bytes = UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count])
            let waiting = !output.queued.isEmpty || output.isWriting || !(staging?.isEmpty ?? true)
            output.cork = waiting ? .queue : .loopBuffer
            if let filter = staging?.filter {
                receive(bytes, through: filter)
            } else {
                let delegate = self.delegate // kept alive even if it replaces itself during the call
                delegate?.connection(self, didRead: bytes)
            }
            let corked = output.cork
            output.cork = .off
            if corked == .loopBuffer && loop.cork.pointee.count > 0 { sendCorked() }
            // Nothing queued, staged or finishing: the flush would find nothing to do.
            if !output.queued.isEmpty || staging != nil || outputState != .open { flush() }
            if output.backpressure == .drainedUnannounced { announceDrainIfDue() }
        } else if count == Int(UV_EOF.rawValue) {
            moveReading(.peerFinished)
            if outputState == .open {
                delegate?.connectionDidReachEOF(self)
            } else if outputState == .shutdownSent {
                close()
            }
        } else if count < 0 {
            fail(Int32(truncatingIfNeeded: count), "read")
        }
    }

    // MARK: writing

    /// Queues a copy of `bytes`; call `flush()` (done for you after each read callback).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard outputState == .open, !isClosing, !bytes.isEmpty else { return }
        if output.cork == .loopBuffer {
            if loop.cork.pointee.append(bytes) { return outputGrew(output.count(bytes.count)) }
            spillCork()
        }
        if let staging { staging.stage(bytes, pool: loop.chunkPool) } else { output.append(bytes, pool: loop.chunkPool) }
        outputGrew(output.count(bytes.count))
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

    @inline(__always)
    func outputGrew(_ growth: WriteQueue.Growth) {
        switch growth {
        case .unchanged: break
        case .paused: moveReading(.outputChanged)
        case .overLimit: close()
        }
    }

    /// Writes what is queued: at once as far as the socket takes it, the rest through one
    /// `uv_write` unless a write is already in flight (its callback flushes again).
    /// Once the output is finishing and all of it left, sends FIN.
    public func flush() {
        // Small, so the common call (inside a read, where it waits) costs no big prologue.
        guard output.cork == .off, !isClosing, !output.isWriting else { return }
        flushNow()
    }

    private func flushNow() {
        if let staging, !staging.isEmpty { encodeStaged() }
        guard !isClosing else { return }
        if !output.queued.isEmpty { writeNow() }
        guard !isClosing, !output.isWriting else { return }
        if output.queued.isEmpty {
            if outputState == .finishing { sendShutdown() }
            return
        }
        let pending = loop.writeRequests.take()
        let count = output.startWrite(buffers: loop.writeBuffers, chunks: &pending.pointee.chunks)
        pending.pointee.request.data = Unmanaged.passUnretained(self).toOpaque()
        if uv_write(&pending.pointee.request, stream, loop.writeBuffers, UInt32(count), connectionDidWrite) < 0 {
            // No callback will come for it: its chunks and the request go back now.
            output.finishWrite(chunks: &pending.pointee.chunks, pool: loop.chunkPool)
            loop.writeRequests.give(pending)
            close()
        }
    }

    /// `write(2)` to the socket, as `uv_try_write` does for one buffer without its checks,
    /// which hold here: nothing is in flight, nothing queued goes before `bytes`, and the
    /// output is open. Returns the bytes taken; 0 for EAGAIN or an error (what is left is
    /// queued, and the `uv_write` after the queue's own try reports the error). A finishing
    /// connection's bytes are its last: the kernel holds them for the `shutdown(2)` that
    /// follows, which sends them and the FIN in one segment (a segment fewer per close).
    func writeDirectly(_ bytes: UnsafeRawBufferPointer) -> Int {
        var descriptor = uv_os_fd_t()
        guard uv_fileno(uvHandle, &descriptor) == 0 else { return 0 }
        while true {
            let written = outputState == .finishing
                ? rxlive_write_before_fin(descriptor, bytes.baseAddress, UInt(bytes.count))
                : systemWrite(descriptor, bytes.baseAddress, bytes.count)
            if written >= 0 { return written }
            if errno != EINTR { return 0 }
        }
    }

    /// Writes synchronously what the socket takes. It tells the delegate nothing, so it never
    /// runs the delegate's code inside the delegate's own `flush()`.
    private func writeNow() {
        // `flush()` calls this only while no write is in flight: a lone chunk may go straight
        // to the socket (`writeDirectly`), as `uv_try_write` would send it, with fewer calls.
        output.writeNow(to: stream, buffers: loop.writeBuffers, pool: loop.chunkPool, writeSole: writeDirectly)
        // The caller sees the flag (a paused HTTP pipeline checks it after each answer); the
        // delegate is told after the next write callback.
        if output.resumeIfDrained() { moveReading(.outputChanged) }
    }

    /// Tells the delegate that reading resumed in a flush, from the connection's own callbacks
    /// (the end of a read, a write callback), never from inside the delegate's code.
    private func announceDrainIfDue() {
        guard output.backpressure == .drainedUnannounced, !isClosing, output.takeDrainAnnouncement() else { return }
        delegate?.connectionDidDrain(self)
    }

    fileprivate func didWrite(status: Int32, _ pending: UnsafeMutablePointer<PendingWrite>) {
        output.finishWrite(chunks: &pending.pointee.chunks, pool: loop.chunkPool)
        loop.writeRequests.give(pending)
        guard status >= 0 else { return fail(status, "write") }
        guard !isClosing else { return }
        if !output.queued.isEmpty || !(staging?.isEmpty ?? true) { flush() }
        guard !isClosing else { return }
        // Backpressure resumes below the low-water mark, here or already in that flush.
        if output.resumeIfDrained() { moveReading(.outputChanged) }
        announceDrainIfDue()
        guard !isClosing else { return }
        if outputState == .finishing, !output.isWriting, output.queued.isEmpty { sendShutdown() }
    }

    // MARK: closing

    /// Sends what is queued, then FIN, then closes once the peer's FIN arrives or after
    /// `lingerTimeout`. Later writes are ignored and further input is discarded.
    public func finish() {
        guard outputState == .open, !isClosing else { return }
        outputState = .finishing
        moveReading(.wanted)
        if output.cork == .loopBuffer { spillCork() }  // the filter's end goes after it
        if let filter = staging?.filter {
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
        setDeadline(afterMilliseconds: UInt64(lingerMilliseconds))
    }

    /// A read or write failed: the delegate hears why, then the connection closes.
    func fail(_ status: Int32, _ operation: String) {
        if !isClosing { delegate?.connection(self, didFail: EventLoopError(status, operation)) }
        close()
    }

    override func willClose() {
        loop.deadlines.remove(self)
        // Counted out as it starts closing: a peer accepted later in this loop turn (a client
        // that closes and reconnects) then stays on this loop instead of hopping to another
        // while this one waits for its close callback.
        if countedAsAccepted {
            countedAsAccepted = false
            loop.acceptedOpen.value.subtract(1, ordering: .relaxed)
        }
    }

    override func didClose() {
        // Pending write and shutdown callbacks (ECANCELED) ran before this close callback.
        output.release(to: loop.chunkPool)
        if let staging { _ = staging.drop(pool: loop.chunkPool) }
        staging = nil
        if readState != .unconnected {
            LiveCounts.connectionClosed()
            loop.heapTrimmer.connectionClosed()
        }
        let delegate = self.delegate
        storedDelegate = nil
        delegate?.connectionDidClose(self)
    }
}

/// `write(2)`, as the bare system call (`rxlive_write`: no cancellation-point wrapper).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    rxlive_write(descriptor, bytes, UInt(count))
}

private func connectionAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int,
                                _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    guard let buffer else { return }
    guard let data = handle?.pointee.data else {
        buffer.pointee = uv_buf_t(base: nil, len: 0)
        return
    }
    // Only `TCPConnection` starts reads with these callbacks; libuv holds it (`LoopHandle`).
    let readBuffer = Unmanaged<TCPConnection>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.loop.readBuffer }
    buffer.pointee = uv_buf_t(base: readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self), len: readBuffer.count)
}

private func connectionDidRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int,
                               _ buffer: UnsafePointer<uv_buf_t>?) {
    guard let data = stream?.pointee.data else { return }
    // Unretained: libuv holds the connection until its close callback, which never runs
    // inside a read callback (`uv_close` defers it).
    Unmanaged<TCPConnection>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.didRead(count) }
}

private func connectionDidWrite(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    guard let request, let data = request.pointee.data else { return }
    let connection = Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue()
    connection.didWrite(status: status, PendingWrite.of(request))
}
