import EventLoop
import WebSocket

/// The HTTP/1.1 side of one TCP connection: decodes pipelined requests, answers them in
/// order, enforces the head and idle timeouts, and hands the socket to a
/// `WebSocketConnection` after a successful upgrade.
final class HTTPConnection: ConnectionTableEntry {
    private enum Phase {
        /// Reading requests (keep-alive).
        case reading
        /// A deferred route or an upgrade's admission is deciding; later requests wait.
        case waiting
        /// A final response was queued; TCP is finishing.
        case closing
        /// The socket belongs to a WebSocketConnection now.
        case upgraded
    }

    /// What the connection's deadline currently measures.
    private enum TimerPurpose { case none, head, idle, stalled, answer }

    private let server: HTTPServer
    let tcp: TCPConnection
    // Unchecked for exclusivity: loop thread only, and `process()` reads the decoder's
    // heads one at a time without holding an access across a handler (about eight dynamic
    // checks per session less).
    @exclusivity(unchecked) private var decoder: HTTPRequestDecoder
    @exclusivity(unchecked) private var phase = Phase.reading
    @exclusivity(unchecked) private var timerPurpose = TimerPurpose.none
    @exclusivity(unchecked) private var peerFinished = false
    /// This connection's place in the server's table of HTTP connections (as the vars above).
    @exclusivity(unchecked) var tableIndex = -1

    init(server: HTTPServer, tcp: TCPConnection) {
        self.server = server
        self.tcp = tcp
        let configuration = server.configuration
        decoder = HTTPRequestDecoder(limits: .init(maxHeadSize: configuration.maxHeadSize,
                                                   maxHeaderCount: configuration.maxHeaderCount,
                                                   maxBodySize: configuration.maxBodySize))
    }

    func start() {
        tcp.delegate = self
        tcp.lingerTimeoutMilliseconds = server.timeouts.httpLinger
        tcp.maxUnsentBytes = server.configuration.maxUnsentBytes
        tcp.highWaterMark = min(tcp.highWaterMark, server.configuration.maxUnsentBytes / 2)
        tcp.lowWaterMark = min(tcp.lowWaterMark, tcp.highWaterMark / 4)
        // A new connection must deliver its first head within the head timeout.
        armTimer(.head)
        tcp.startReading()
    }

    /// True while no request is partly received (safe to close when draining).
    var isIdle: Bool { phase == .reading && !decoder.hasPartialInput }

    /// Closes the connection gracefully if it sits between requests (shutdown).
    func closeIfIdle() {
        if isIdle { finish() }
    }

    private func finish() {
        phase = .closing
        timerPurpose = .none
        tcp.clearDeadline()
        tcp.finish()
    }

    private func armTimer(_ purpose: TimerPurpose) {
        timerPurpose = purpose
        switch purpose {
        case .none: tcp.clearDeadline()
        case .head: tcp.setDeadline(afterMilliseconds: server.timeouts.head)
        case .idle, .stalled, .answer: tcp.setDeadline(afterMilliseconds: server.timeouts.idle)
        }
    }

    private func timerFired() {
        if phase == .waiting && timerPurpose == .answer {
            // The answer never came (a database that hangs): say so rather than hold the socket.
            phase = .reading
            return send(.error(503), headOnly: false, keepAlive: false)
        }
        guard phase == .reading else { return }
        switch timerPurpose {
        case .none: break
        case .head: headTimedOut()
        case .idle: finish()
        // The peer has not taken our answers for a whole idle timeout: give up on it.
        case .stalled: tcp.close()
        case .answer: break
        }
    }

    private func headTimedOut() {
        guard phase == .reading else { return }
        if decoder.hasPartialInput {
            send(.error(408), headOnly: false, keepAlive: false)
        } else {
            finish()
        }
    }

    private func process() {
        // Pipelined requests wait while the peer is not taking our responses (resumed on drain).
        while phase == .reading, !tcp.isPausedForBackpressure, let output = decoder.next() {
            switch output {
            case .failure(let error):
                send(.error(error.status), headOnly: false, keepAlive: false)
            case .head(let request):
                timerPurpose = .none
                handle(request)
            }
        }
        guard phase == .reading else { return }
        if tcp.isPausedForBackpressure {
            // Waiting on the peer to read, not on its next request.
            if timerPurpose != .stalled { armTimer(.stalled) }
        } else if decoder.hasPartialInput {
            if timerPurpose != .head { armTimer(.head) }
        } else if timerPurpose != .idle {
            armTimer(.idle)
        }
    }

    private func handle(_ request: HTTPRequestHead) {
        switch server.route(request) {
        case .response(var response):
            response.headers += server.securityFields(for: response, request: request, peer: tcp)
            // A body this server cannot frame (chunked) ends the connection after the answer.
            // Read only for a response: an upgrade has no use for its Connection tokens.
            let keepAlive = request.keepAlive && !decoder.isStopped && !server.isDraining
            send(response, headOnly: request.method == "HEAD", keepAlive: keepAlive)
        case .upgrade(let makeHandler):
            upgrade(request, handler: makeHandler())
        case .admittedUpgrade(let route):
            phase = .waiting
            route.admit(context(request), HTTPAnswer(loop: tcp.loop) { [self] admission in
                guard phase == .waiting else { return }
                switch admission {
                case .admit(let identity):
                    upgrade(request, handler: route.makeHandler(identity))
                case .refuse(let response):
                    resume(with: response, to: request)
                }
            })
            waitUnlessAnswered()
        case .deferred(let route):
            phase = .waiting
            route.handler(context(request), HTTPAnswer(loop: tcp.loop) { [self] response in
                guard phase == .waiting else { return }
                resume(with: response, to: request)
            })
            waitUnlessAnswered()
        }
    }

    /// After a route was asked for its answer: when it has not answered at once, stops
    /// reading requests until it does, at most an idle timeout. An answer at once (a cached
    /// sign-in) arms no deadline for the wait.
    private func waitUnlessAnswered() {
        if phase == .waiting { armTimer(.answer) }
    }

    /// Sends a deferred answer and goes on with the requests that waited behind it.
    private func resume(with response: HTTPResponse, to request: HTTPRequestHead) {
        phase = .reading
        timerPurpose = .none
        let keepAlive = request.keepAlive && !decoder.isStopped && !server.isDraining
        send(response, headOnly: request.method == "HEAD", keepAlive: keepAlive)
        process()
        finishIfPeerDone()
    }

    private func context(_ request: HTTPRequestHead) -> HTTPRequestContext {
        // The peer's address is kept unwritten (most requests never read it as text), and
        // Origin is looked up in the head's index.
        HTTPRequestContext(head: request, body: decoder.body, peer: tcp.peerIPAddress, isTLS: server.configuration.tls != nil,
                           originAllowed: request.fieldCount(.origin) == 1
                               && WebSocketUpgrade.isOriginAllowed(request, hostPolicy: server.hostPolicy))
    }

    /// Answers `request`, which `WebSocketUpgrade.evaluate` accepted, with 101 and hands the
    /// connection to `handler`.
    private func upgrade(_ request: HTTPRequestHead, handler: any WebSocketHandler) {
        phase = .upgraded
        timerPurpose = .none
        // The deadline is left armed: `WebSocketConnection.start` re-arms or clears it next,
        // before the loop could fire it (one heap removal and insertion less).
        let deflate = WebSocketUpgrade.perMessageDeflate(request, enabled: server.configuration.perMessageDeflate)
        // The accepted request has exactly one key (its bytes read in place, no string made).
        request.withOnlyFieldValue(.secWebSocketKey) { key in
            WebSocketHandshake.withSwitchingProtocolsResponse(forKeyBytes: key ?? UnsafeBufferPointer(start: nil, count: 0),
                                                              extensions: deflate?.responseHeaderValue) { tcp.write($0) }
        }
        let leftover = decoder.takeRemainingBytes()
        server.upgraded(self, request: request, handler: handler, leftover: leftover, deflate: deflate)
    }

    /// Writes `response` with framing headers; without keep-alive the connection finishes after it.
    private func send(_ response: HTTPResponse, headOnly: Bool, keepAlive: Bool) {
        var head = "HTTP/1.1 \(response.status) \(HTTPStatus.reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        let hasBody = response.status != 304 && response.status != 204
        if hasBody { head += "Content-Length: \(response.body.count)\r\n" }
        head += "Date: \(server.currentDate())\r\n"
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        tcp.write(head)
        if hasBody && !headOnly { tcp.write(response.body) }
        tcp.flush()
        if !keepAlive { finish() }
    }
}

extension HTTPConnection: TCPConnectionDelegate {
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        if phase == .waiting {
            // Held until the answer; a peer that sends more than a head meanwhile is dropped.
            decoder.append(bytes)
            if decoder.bufferedByteCount > server.configuration.maxHeadSize { tcp.close() }
            return
        }
        guard phase == .reading else { return }
        decoder.append(bytes)
        process()
    }

    func connectionDidDrain(_ connection: TCPConnection) {
        guard phase == .reading else { return }
        process()
        finishIfPeerDone()
        tcp.flush()
    }

    func connectionDidReachEOF(_ connection: TCPConnection) {
        if phase == .waiting { peerFinished = true }
        guard phase == .reading else { return }
        peerFinished = true
        process()
        finishIfPeerDone()
    }

    /// After the peer's FIN, finish once every buffered request was answered.
    private func finishIfPeerDone() {
        if peerFinished && phase == .reading && !tcp.isPausedForBackpressure { finish() }
    }

    func connectionDeadlinePassed(_ connection: TCPConnection) {
        timerFired()
    }

    func connectionDidClose(_ connection: TCPConnection) {
        if phase != .upgraded { server.connectionClosed(self) }
        // An answer still on its way finds the connection gone.
        if phase == .waiting { phase = .closing }
    }
}
