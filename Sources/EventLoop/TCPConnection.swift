import CLibUV

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
}

/// Defaults for the optional delegate methods.
public extension TCPConnectionDelegate {
    func connectionDidDrain(_ connection: TCPConnection) {}
}

/// One accepted TCP connection with a write queue and backpressure.
///
/// Writes are copied into pooled chunks and queued; `flush()` hands up to `maxBuffersPerWrite`
/// chunks to a single `uv_write`, and only one write is in flight at a time, so writes made
/// while one is in flight are coalesced into the next. Once the unsent bytes pass
/// `highWaterMark` the connection stops reading from the peer and resumes when they drop to
/// `lowWaterMark`; past `maxUnsentBytes` it gives up on the peer and closes.
public final class TCPConnection: LoopHandle {
    private enum OutputState { case open, finishing, shutdownSent }

    /// The object told about reads, EOF and close; released after `connectionDidClose`.
    public var delegate: (any TCPConnectionDelegate)?
    /// Unsent bytes above which reading pauses.
    public var highWaterMark = 1 << 20
    /// Unsent bytes at or below which paused reading resumes.
    public var lowWaterMark = 256 << 10
    /// Unsent bytes above which the peer is considered stuck and the connection closes.
    public var maxUnsentBytes = 16 << 20
    /// How long `finish()` waits for the peer's FIN after sending ours.
    public var lingerTimeout: Duration = .seconds(2)

    static let maxBuffersPerWrite = 64

    private var queued: [OutputChunk] = []
    private var inFlight: [OutputChunk] = []
    /// Bytes written but not yet confirmed by a write callback.
    public private(set) var unsentBytes = 0
    private let writeRequest: UnsafeMutablePointer<uv_write_t>
    private let shutdownRequest: UnsafeMutablePointer<uv_shutdown_t>
    private let buffers: UnsafeMutablePointer<uv_buf_t>
    private var outputState = OutputState.open
    private var wantsReading = false
    private var isReading = false
    /// True while reading is paused because the peer does not take our output.
    public private(set) var isPausedForBackpressure = false
    /// True once the peer sent FIN.
    public private(set) var peerFinished = false
    private var accepted = false
    private var lingerTimer: TimerHandle?
    /// Runs in the close callback after the delegate's; the acceptor that handed this
    /// connection to its loop counts it out here.
    var closeObserver: (() -> Void)?

    init(loop: EventLoop) throws {
        writeRequest = .allocate(capacity: 1)
        shutdownRequest = .allocate(capacity: 1)
        buffers = .allocate(capacity: Self.maxBuffersPerWrite)
        super.init(loop: loop, type: UV_TCP)
        do {
            try finishInit(status: uv_tcp_init(loop.uvLoop, tcp), operation: "uv_tcp_init")
        } catch {
            freeRequests()
            throw error
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        writeRequest.pointee.data = me
        shutdownRequest.pointee.data = me
    }

    private func freeRequests() {
        writeRequest.deallocate()
        shutdownRequest.deallocate()
        buffers.deallocate()
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> { rawHandle.assumingMemoryBound(to: uv_tcp_t.self) }
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
            let delegate = self.delegate // kept alive even if it replaces itself during the call
            delegate?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
            flush()
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

    // MARK: writing

    /// Queues a copy of `bytes`; call `flush()` (done for you after each read callback).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard outputState == .open, !isClosing, !bytes.isEmpty else { return }
        var rest = bytes
        while !rest.isEmpty {
            if queued.last.map({ $0.freeSpace == 0 }) ?? true { queued.append(loop.chunkPool.take()) }
            let taken = queued[queued.count - 1].append(rest)
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
        unsentBytes += bytes.count
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

    /// Hands queued chunks to libuv unless a write is already in flight (its callback flushes again).
    public func flush() {
        guard !isClosing, inFlight.isEmpty, !queued.isEmpty else { return }
        let count = min(queued.count, Self.maxBuffersPerWrite)
        for index in 0..<count {
            let chunk = queued[index]
            buffers[index] = uv_buf_init(chunk.storage.assumingMemoryBound(to: CChar.self), UInt32(chunk.count))
            inFlight.append(chunk)
        }
        queued.removeFirst(count)
        if uv_write(writeRequest, stream, buffers, UInt32(count), connectionDidWrite) < 0 {
            close()
        }
    }

    fileprivate func didWrite(status: Int32) {
        for chunk in inFlight {
            unsentBytes -= chunk.count
            loop.chunkPool.give(chunk)
        }
        inFlight.removeAll(keepingCapacity: true)
        guard status >= 0 else {
            close()
            return
        }
        guard !isClosing else { return }
        if isPausedForBackpressure && unsentBytes <= lowWaterMark {
            isPausedForBackpressure = false
            updateReading()
            delegate?.connectionDidDrain(self)
            guard !isClosing else { return }
        }
        if !queued.isEmpty {
            flush()
        } else if outputState == .finishing {
            sendShutdown()
        }
    }

    // MARK: closing

    /// Sends what is queued, then FIN, then closes once the peer's FIN arrives or after
    /// `lingerTimeout`. Later writes are ignored and further input is discarded.
    public func finish() {
        guard outputState == .open, !isClosing else { return }
        outputState = .finishing
        wantsReading = true
        updateReading()
        flush()
        if inFlight.isEmpty && queued.isEmpty { sendShutdown() }
    }

    private func sendShutdown() {
        outputState = .shutdownSent
        if peerFinished || uv_shutdown(shutdownRequest, stream, connectionDidShutdown) < 0 {
            close()
            return
        }
    }

    fileprivate func didShutdown(status: Int32) {
        guard !isClosing else { return }
        if status < 0 || peerFinished {
            close()
            return
        }
        lingerTimer = try? loop.scheduleTimer(after: lingerTimeout) { [weak self] in self?.close() }
        if lingerTimer == nil { close() }
    }

    override func willClose() {
        lingerTimer?.cancel()
        lingerTimer = nil
        isReading = false
    }

    override func didClose() {
        // Pending write and shutdown callbacks (ECANCELED) ran before this close callback.
        for chunk in queued + inFlight { loop.chunkPool.give(chunk) }
        queued.removeAll()
        inFlight.removeAll()
        unsentBytes = 0
        freeRequests()
        if accepted { LiveCounts.connectionClosed() }
        let delegate = self.delegate
        self.delegate = nil
        delegate?.connectionDidClose(self)
        let closeObserver = self.closeObserver
        self.closeObserver = nil
        closeObserver?()
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
    guard let data = request?.pointee.data else { return }
    Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue().didWrite(status: status)
}

private func connectionDidShutdown(_ request: UnsafeMutablePointer<uv_shutdown_t>?, _ status: Int32) {
    guard let data = request?.pointee.data else { return }
    Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue().didShutdown(status: status)
}
