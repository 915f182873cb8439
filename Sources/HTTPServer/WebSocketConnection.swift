import EventLoop
import Synchronization
import WebSocket

/// One upgraded connection (RFC 6455, server side) handed to a `WebSocketHandler`.
///
/// Frames are decoded by `WebSocketProtocolMachine` straight from the loop's read buffer and
/// written header + payload into the TCP write queue, so a message costs no allocation here.
/// Its timeouts (heartbeat, pong, close handshake) take turns on the TCP connection's one
/// deadline, and the upgrade request goes to the handler's `webSocketDidOpen` rather than
/// being kept: an idle connection holds only what it needs. Loop thread only.
public final class WebSocketConnection {
    /// Where the heartbeat is: the second ping is placed apart (`scheduleNextPing(afterFirst:)`).
    private enum Heartbeat {
        case beforeFirstPing
        case awaitingFirstPong
        case awaitingPong
        case betweenPings
    }

    private enum State {
        /// Messages flow both ways.
        case open
        /// We sent a close frame and wait for the peer's (or the close timeout).
        case closeSent
        /// The close handshake is over or abandoned; TCP is closing.
        case finished
    }

    // Declared so the small fields share the last word: every session holds one of these,
    // and at 104 bytes (its machine 48) it takes a 112-byte malloc block.

    @usableFromInline let tcp: TCPConnection
    @exclusivity(unchecked) private var handler: (any WebSocketHandler)?
    /// The server, for its configuration, its shared zlib streams and to be told of the
    /// close; it outlives its connections. Unsafe: the server stops only after its
    /// connections closed, and a checked reference costs each read an atomic retain (every
    /// ping reads it three times).
    unowned(unsafe) let server: HTTPServer
    // `@exclusivity(unchecked)` below: loop thread only; `receive` is the one access to
    // `machine` that spans calls out, and nothing it calls reaches `machine`.
    @exclusivity(unchecked) private var machine: WebSocketProtocolMachine
    /// Loop time (ms) of the last ping, in 32 bits: only its distance to now (under the
    /// ping interval plus the pong timeout, far below 49 days) is ever read.
    @exclusivity(unchecked) private var pingSentAt: UInt32 = 0
    @exclusivity(unchecked) private var state = State.open
    @exclusivity(unchecked) private var heartbeat = Heartbeat.beforeFirstPing
    @exclusivity(unchecked) private var didNotifyOpen = false
    /// The server's window bits when permessage-deflate was negotiated (0 when not); messages
    /// are then compressed with the server's shared streams (the connection owns no stream,
    /// so an idle one costs no zlib memory).
    private let deflateWindowBits: UInt8

    /// The loop this connection lives on; every call must come from its thread.
    public var eventLoop: EventLoop { tcp.loop }

    /// True on the thread of the connection's loop (`eventLoop.inEventLoop`, without
    /// retaining the loop).
    @inlinable public var inEventLoop: Bool { tcp.inEventLoop }

    /// The peer's IP address (the TCP peer: a proxy's when there is one).
    public var peerAddress: String? { tcp.peerAddress }
    /// The peer's IP address, its text made only when read.
    package var peerIPAddress: PeerAddress? { tcp.peerIPAddress }

    /// True until a close frame was sent or received or the connection failed.
    public var isOpen: Bool { state == .open }

    private var configuration: HTTPServerConfiguration { server.configuration }

    /// With `deflate`, the server's `deflateStreams` must exist.
    init(tcp: TCPConnection, handler: any WebSocketHandler, server: HTTPServer, deflate: PerMessageDeflateParameters? = nil) {
        self.tcp = tcp
        self.handler = handler
        self.server = server
        deflateWindowBits = deflate.map { UInt8(clamping: max(1, $0.serverWindowBits)) } ?? 0
        let configuration = server.configuration
        machine = WebSocketProtocolMachine(configuration: .init(
            maxMessageSize: configuration.maxMessageSize, acceptsBinary: configuration.acceptsBinaryMessages,
            requiresMasking: true), inflater: deflate == nil ? nil : server.deflateStreams?.inflater)
    }

    /// Takes over the TCP connection after the 101 response; `leftover` are bytes that came
    /// after the request head.
    func start(request: HTTPRequestHead, leftover: [UInt8]) {
        tcp.delegate = self
        let timeouts = server.timeouts
        tcp.lingerTimeoutMilliseconds = timeouts.closeLinger
        // Replaces the HTTP connection's deadline, which the upgrade left armed. The first ping
        // comes within one interval (and a slot), spreading connections opened together.
        if let interval = timeouts.ping {
            let delay = server.pingPhases.firstPingDelay(interval: interval, now: tcp.loop.nowMilliseconds)
            tcp.setDeadline(afterMilliseconds: delay)
        } else {
            tcp.clearDeadline()
        }
        didNotifyOpen = true
        handler?.webSocketDidOpen(self, request: request)
        if !leftover.isEmpty {
            leftover.withUnsafeBytes { receive($0) }
        }
        tcp.flush()
    }

    // MARK: sending

    /// Queues a text message; ignored once the connection is closing.
    public func send(text: String) {
        var text = text
        text.withUTF8 { sendFrame(.text, UnsafeRawBufferPointer($0)) }
    }

    /// Queues a text message from UTF-8 bytes the caller guarantees valid.
    public func send(textBytes bytes: UnsafeRawBufferPointer) { sendFrame(.text, bytes) }

    /// Queues a binary message.
    public func send(binary bytes: UnsafeRawBufferPointer) { sendFrame(.binary, bytes) }

    private func sendFrame(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer) {
        guard state == .open else { return }
        if deflateWindowBits != 0, let streams = server.deflateStreams, payload.count >= configuration.minimumCompressedSize {
            streams.deflater(windowBits: Int(deflateWindowBits)).compress(payload) { compressed in
                if let compressed {
                    writeFrame(opcode, compressed, compressed: true)
                } else {
                    writeFrame(opcode, payload)
                }
            }
        } else {
            writeFrame(opcode, payload)
        }
        tcp.flush()
    }

    /// Writes header and payload as one piece: straight into the loop's cork buffer while
    /// the connection answers a read (the payload copied once), else into the write queue.
    private func writeFrame(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer, compressed: Bool = false) {
        // Under 64 KiB, the 2- or 4-byte header made in a register.
        if let header = WebSocketFrameEncoder.packedHeader(opcode: opcode, compressed: compressed,
                                                           payloadLength: payload.count) {
            tcp.write(header: header.word, count: header.size, payload: payload)
        } else {
            writeLargeFrame(opcode, payload, compressed: compressed)
        }
    }

    /// A frame of 64 KiB or more: its 10-byte header, then the payload.
    @inline(never)
    private func writeLargeFrame(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer, compressed: Bool) {
        let count = payload.count
        let tcp = self.tcp
        withUnsafeTemporaryAllocation(byteCount: WebSocketFrameHeader.maxSize, alignment: 1) { header in
            if let size = WebSocketFrameEncoder.writeHeader(opcode: opcode, fin: true, compressed: compressed,
                                                            payloadLength: count, into: header) {
                tcp.write(UnsafeRawBufferPointer(rebasing: header[0..<size]))
            }
        }
        tcp.write(payload)
    }

    private func writeClose(_ code: WebSocketCloseCode?, reason: String = "") {
        withUnsafeTemporaryAllocation(byteCount: 2 + 125 + 2, alignment: 1) { frame in
            if let size = WebSocketFrameEncoder.writeClose(code: code, reason: reason, into: frame) {
                tcp.write(UnsafeRawBufferPointer(rebasing: frame[0..<size]))
            }
        }
    }

    /// Starts the close handshake with `code` (1000 normal, 1001 going away, ...); TCP closes
    /// when the peer answers or after the close timeout.
    public func close(code: UInt16 = 1000, reason: String = "") {
        guard state == .open else { return }
        state = .closeSent
        writeClose(WebSocketCloseCode(rawValue: code), reason: reason)
        tcp.flush()
        tcp.setDeadline(afterMilliseconds: server.timeouts.close)
    }

    /// Drops the TCP connection at once, without a close handshake.
    func abort() { tcp.close() }

    /// Ends the handshake: flush, FIN, close TCP (at the latest after the close timeout).
    private func finish() {
        guard state != .finished else { return }
        state = .finished
        tcp.clearDeadline()
        tcp.finish()
    }

    // MARK: heartbeat and timeouts

    /// The one deadline: the next ping, the pong's, or the close handshake's.
    private func deadlinePassed() {
        switch state {
        case .open where heartbeat == .awaitingFirstPong || heartbeat == .awaitingPong:
            // No pong in time: the peer is gone (no FIN ever came), so skip the handshake.
            tcp.close()
        case .open:
            guard server.timeouts.ping != nil else { return }  // not `configuration`: a copy of it all
            heartbeat = heartbeat == .beforeFirstPing ? .awaitingFirstPong : .awaitingPong
            pingSentAt = UInt32(truncatingIfNeeded: tcp.loop.nowMilliseconds)
            writeFrame(.ping, UnsafeRawBufferPointer(start: nil, count: 0))
            tcp.flush()
            tcp.setDeadline(afterMilliseconds: server.timeouts.pong)
        case .closeSent:
            tcp.close()
        case .finished:
            break
        }
    }

    /// After a pong, the next ping. The first ping's pong places the second at a phase spread
    /// over the whole interval (`PingPhases`), which sets the cadence the connection keeps;
    /// after a later pong the next ping keeps that cadence, an interval after the last one (a
    /// tick that passed while the pong was awaited is skipped), on a slot boundary.
    private func scheduleNextPing(afterFirst: Bool) {
        guard let interval = server.timeouts.ping else { return tcp.clearDeadline() }
        let step = max(1, interval)
        let now = tcp.loop.nowMilliseconds
        let elapsed = UInt64(UInt32(truncatingIfNeeded: now) &- pingSentAt)
        let delay = afterFirst
            ? server.pingPhases.secondPingDelay(interval: step, sinceFirstPing: elapsed, now: now)
            : server.pingPhases.onSlot(step - elapsed % step, interval: step, now: now)  // the cadence's first tick after now
        tcp.setDeadline(afterMilliseconds: delay)
    }

    // MARK: receiving

    private func receive(_ bytes: UnsafeRawBufferPointer) {
        machine.receive(bytes) { event in
            switch event {
            case .text(let message):
                if state == .open { handler?.webSocket(self, didReceiveTextBytes: message) }
            case .binary(let message):
                if state == .open { handler?.webSocket(self, didReceiveBinary: message) }
            case .sendPong(let payload):
                if state == .open { writeFrame(.pong, payload) }
            case .pongReceived:
                if state == .open, heartbeat == .awaitingFirstPong || heartbeat == .awaitingPong {
                    let afterFirst = heartbeat == .awaitingFirstPong
                    heartbeat = .betweenPings
                    scheduleNextPing(afterFirst: afterFirst)
                }
            case .peerClosed(let code, _):
                if state == .open { writeClose(code) }
                finish()
            case .fail(let code):
                if state == .open { writeClose(code) }
                finish()
            }
        }
    }

    // MARK: TCP events

    private func tcpDidReachEOF() {
        // The peer went away without finishing the close handshake.
        state = .finished
        tcp.close()
    }

    private func tcpDidClose() {
        state = .finished
        let handler = self.handler
        self.handler = nil
        if didNotifyOpen { handler?.webSocketDidClose(self) }
        server.webSocketClosed(self)
    }
}

/// The connection is its socket's delegate (the socket holds it until TCP is closed): no
/// forwarding object per connection. These are the socket's calls, not for other callers:
/// SPI, so no module sees them without asking (`@_spi(Transport)`).
extension WebSocketConnection: TCPConnectionDelegate {
    @_spi(Transport) public func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) { receive(bytes) }
    @_spi(Transport) public func connectionDidReachEOF(_ connection: TCPConnection) { tcpDidReachEOF() }
    @_spi(Transport) public func connectionDidClose(_ connection: TCPConnection) { tcpDidClose() }
    @_spi(Transport) public func connectionDeadlinePassed(_ connection: TCPConnection) { deadlinePassed() }
}
