import EventLoop
import Logging
import WebSocket
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP/1.1 + WebSocket server on one event loop: static files from the public
/// directory, a health check, dynamic GET routes and WebSocket routes.
///
/// Create, configure and start it on the loop's thread; every callback runs there too.
public final class HTTPServer {
    /// What a request resolves to.
    enum Routing {
        case response(HTTPResponse)
        case upgrade(makeHandler: () -> any WebSocketHandler)
        /// An upgrade whose admission is decided first, perhaps off the loop (a sign-in's lookup).
        case admittedUpgrade(route: AdmittedWebSocketRoute)
        /// A response made later, perhaps off the loop (`addDeferredRoute`).
        case deferred(DeferredRoute)
    }

    /// What one path routes to: a response route (checked first), a WebSocket route, or both.
    /// An object, so a request's look-up takes one reference rather than copying four closures.
    final class PathRoutes {
        var response: ((HTTPRequestHead) -> HTTPResponse)?
        var webSocket: (() -> any WebSocketHandler)?
        var admittedWebSocket: AdmittedWebSocketRoute?
        var deferred: DeferredRoute?
    }

    /// The settings the server was made with.
    public let configuration: HTTPServerConfiguration
    /// The loop every connection of this server lives on.
    public let loop: EventLoop
    private let logger: Logger
    let hostPolicy: HostPolicy
    /// The configuration's timeouts in milliseconds.
    let timeouts: ConnectionTimeouts
    private var acceptor: TCPAcceptor?
    @exclusivity(unchecked) private var files: StaticFiles?  // as the tables below
    // The tables below go unchecked for exclusivity: loop thread only, never borrowed
    // across a call that could reach them again (five dynamic checks per session less).
    /// Both kinds of route by path in one table: a request looks its path up once.
    @exclusivity(unchecked) var routes = RouteTable()
    @exclusivity(unchecked) private var webSocketFallback: (() -> any WebSocketHandler)?
    @exclusivity(unchecked) private var connections = ConnectionTable<HTTPConnection>()
    /// The upgraded connections open, counted only: a drain finds them on the loop
    /// (`openWebSockets()`), so no table follows every session (a dictionary entry cost each
    /// about 26 bytes and 1,200 instructions, and an index would grow the session's
    /// `WebSocketConnection` past its malloc block, HTTPServerLayoutTests).
    @exclusivity(unchecked) private var webSocketCount = 0
    /// Spreads the new WebSockets' heartbeats over the ping interval.
    @exclusivity(unchecked) var pingPhases = PingPhases()
    @exclusivity(unchecked) private var shutdownCompletions: [() -> Void] = []
    @exclusivity(unchecked) private var shutdownTimer: TimerHandle?
    @exclusivity(unchecked) private var started = false
    /// The Host field of the last request routed, when it was accepted (`route`).
    @exclusivity(unchecked) private var lastAcceptedHost: [UInt8] = []
    private var cachedDate: (second: Int, text: String) = (0, "")
    /// The zlib streams this server's connections share (one server per loop, so one set per loop thread).
    private(set) var deflateStreams: PerMessageDeflateStreams?

    /// True from `shutdown` on: `/healthz` answers 503 and keep-alive ends.
    @exclusivity(unchecked) public private(set) var isDraining = false  // as the tables above
    /// True from `enterDrainGrace()` on: `/healthz` answers 503, everything else is served.
    @exclusivity(unchecked) public private(set) var isInDrainGrace = false  // as the tables above

    /// A server on `loop`; nothing listens until `start()`.
    public init(configuration: HTTPServerConfiguration, loop: EventLoop,
                logger: Logger = Logger(label: "rxlive.http")) {
        self.configuration = configuration
        self.loop = loop
        self.logger = logger
        hostPolicy = HostPolicy(configuration: configuration)
        timeouts = ConnectionTimeouts(configuration)
        WebSocketHandshake.prepare()
    }

    /// Routes upgrade requests for `path` (e.g. "/ws/login") to a new handler each.
    /// Other `/ws/...` paths answer 404 without upgrading.
    public func addWebSocketRoute(_ path: String, _ makeHandler: @escaping () -> any WebSocketHandler) {
        routes.update(path) { $0.webSocket = makeHandler }
    }

    /// Upgrades a WebSocket request on any path no other route takes (test echo servers).
    public func setWebSocketFallback(_ makeHandler: @escaping () -> any WebSocketHandler) {
        webSocketFallback = makeHandler
    }

    /// Answers GET and HEAD of `path` (exact match, query ignored) with `handler`'s response.
    public func addRoute(_ path: String, _ handler: @escaping (HTTPRequestHead) -> HTTPResponse) {
        routes.update(path) { $0.response = handler }
    }

    /// Binds and listens. Throws `HTTPServerError` when the public directory is missing or
    /// the address cannot be used (e.g. port in use).
    public func start() throws {
        try prepare()
        let acceptor: TCPAcceptor
        do {
            acceptor = try TCPAcceptor(loop: loop, host: configuration.host, port: configuration.port,
                                       reusePort: configuration.reusePort)
        } catch let error as EventLoopError {
            throw HTTPServerError.listenFailed(host: configuration.host, port: configuration.port, error)
        }
        acceptor.onError = { [logger] error in logger.error("accepting stopped", metadata: ["error": "\(error)"]) }
        do {
            try acceptor.start { [unowned self] tcp in accept(tcp) }
        } catch let error as EventLoopError {
            acceptor.close()
            throw HTTPServerError.listenFailed(host: configuration.host, port: configuration.port, error)
        }
        self.acceptor = acceptor
        logger.info("listening", metadata: ["host": "\(configuration.host)", "port": "\(localPort)"])
    }

    /// Starts without an acceptor of its own: connections arrive through `serve(_:)`, as an
    /// `HTTPServerGroup`'s shared acceptor hands them to this server's loop.
    public func startWithoutListening() throws {
        try prepare()
    }

    private func prepare() throws {
        guard !started else { throw HTTPServerError.alreadyStarted }
        if let directory = configuration.publicDirectory { files = try StaticFiles(directory: directory) }
        started = true
    }

    /// The port listened on (the real one when configured with 0).
    public var localPort: Int { acceptor?.localPort ?? 0 }

    /// Open HTTP (not upgraded) connections.
    public var connectionCount: Int { connections.count }

    /// Starts the drain grace: `/healthz` answers 503 so health checkers take this instance
    /// out of rotation, while every request and new WebSocket is still served.
    public func enterDrainGrace() {
        guard !isInDrainGrace else { return }
        isInDrainGrace = true
        logger.debug("drain grace: /healthz answers 503")
    }

    /// Graceful shutdown: stop accepting, answer `/healthz` with 503, close idle HTTP
    /// connections, close every WebSocket with 1001, then call `completion` once all
    /// connections are gone (or after `shutdownTimeout`, dropping the rest).
    public func shutdown(completion: @escaping () -> Void) {
        shutdownCompletions.append(completion)
        guard !isDraining else { return finishShutdownIfDone() }
        isDraining = true
        logger.info("draining", metadata: ["http": "\(connections.count)", "websockets": "\(webSocketCount)"])
        acceptor?.close()
        acceptor = nil
        for connection in connections.entries { connection.closeIfIdle() }
        for webSocket in openWebSockets() { webSocket.close(code: 1001, reason: "server shutting down") }
        do {
            shutdownTimer = try loop.scheduleTimer(after: configuration.shutdownTimeout) { [unowned self] in
                for connection in connections.entries { connection.tcp.close() }
                for webSocket in openWebSockets() { webSocket.abort() }
            }
        } catch {
            logger.error("no shutdown timeout: connections that do not close are not dropped", metadata: ["error": "\(error)"])
        }
        finishShutdownIfDone()
    }

    private func finishShutdownIfDone() {
        guard isDraining, connections.isEmpty, webSocketCount == 0, !shutdownCompletions.isEmpty else { return }
        shutdownTimer?.cancel()
        shutdownTimer = nil
        let completions = shutdownCompletions
        shutdownCompletions = []
        logger.info("drained")
        for completion in completions { completion() }
    }

    // MARK: connections

    /// Serves a connection accepted elsewhere; it must live on this server's loop.
    public func serve(_ tcp: TCPConnection) {
        precondition(tcp.loop === loop, "a connection is served on its own loop")
        accept(tcp)
    }

    private func accept(_ tcp: TCPConnection) {
        if let tls = configuration.tls {
            do {
                let session = try tls.context.makeSession()
                session.onFailure = { [logger] error in logger.debug("TLS connection dropped", metadata: ["reason": "\(error)"]) }
                tcp.filter = session
            } catch {
                logger.error("cannot start TLS on a connection", metadata: ["error": "\(error)"])
                return tcp.close()
            }
        }
        let connection = HTTPConnection(server: self, tcp: tcp)
        connections.insert(connection)
        connection.start()
    }

    func connectionClosed(_ connection: HTTPConnection) {
        connections.remove(connection)
        finishShutdownIfDone()
    }

    func upgraded(_ connection: HTTPConnection, request: HTTPRequestHead, handler: any WebSocketHandler, leftover: [UInt8],
                  deflate: PerMessageDeflateParameters? = nil) {
        connections.remove(connection)
        if deflate != nil && deflateStreams == nil {
            deflateStreams = PerMessageDeflateStreams()
        }
        let webSocket = WebSocketConnection(tcp: connection.tcp, handler: handler, server: self, deflate: deflate)
        webSocketCount += 1
        webSocket.start(request: request, leftover: leftover)
    }

    /// A WebSocket connection's TCP connection closed.
    func webSocketClosed(_ webSocket: WebSocketConnection) {
        webSocketCount -= 1
        finishShutdownIfDone()
    }

    /// This server's WebSocket connections still open on its loop.
    private func openWebSockets() -> [WebSocketConnection] {
        loop.openConnections().compactMap { connection in
            guard let webSocket = connection.delegate as? WebSocketConnection, webSocket.server === self else { return nil }
            return webSocket
        }
    }

    /// The Date header value, formatted at most once a second.
    func currentDate() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let second = Int(now.tv_sec)
        if second != cachedDate.second { cachedDate = (second, HTTPDate.format(second)) }
        return cachedDate.text
    }

    // MARK: routing

    func route(_ request: HTTPRequestHead) -> Routing {
        // HTTP/1.1 requires Host (the decoder answers 400 without it); only 1.0 may omit it. An
        // absolute-form target's authority is the host checked (RFC 9112 §3.2.2).
        if let authority = request.authority {
            if !hostPolicy.accepts(host: authority) { return .response(.error(421)) }
        } else if !request.hostFieldIsAccepted(by: hostPolicy, remembering: &lastAcceptedHost) {
            return .response(.error(421))
        }
        let isGetOrHead = request.method == "GET" || request.method == "HEAD"
        // Made only when it is the answer (an upgrade, the usual request, never needs it).
        var notAllowed: HTTPResponse { HTTPResponse.error(405, headers: [("Allow", "GET, HEAD")]) }
        // Every decision below is made on the one normal form of the path, never on its raw spelling.
        let path: String
        switch RequestPath.normalise(request.path) {
        case .path(let normal): path = normal
        case .malformed: return .response(isGetOrHead ? .error(400) : notAllowed)
        case .refused: return .response(isGetOrHead ? .error(404) : notAllowed)
        }
        if let health = configuration.healthCheckPath, path == health {
            guard isGetOrHead else { return .response(notAllowed) }
            return .response(isDraining || isInDrainGrace
                ? HTTPResponse(status: 503, contentType: "application/json", body: #"{"status":"draining"}"#)
                : HTTPResponse(status: 200, contentType: "application/json", body: #"{"status":"ok"}"#))
        }
        let pathRoutes = routes[path]
        if let handler = pathRoutes?.response {
            return .response(isGetOrHead ? handler(request) : notAllowed)
        }
        if let deferred = pathRoutes?.deferred {
            guard deferred.methods.contains(request.method) else {
                return .response(.error(405, headers: [("Allow", deferred.methods.sorted().joined(separator: ", "))]))
            }
            return .deferred(deferred)
        }
        if let admitted = pathRoutes?.admittedWebSocket {
            if isDraining { return .response(.error(503)) }
            switch WebSocketUpgrade.evaluate(request, hostPolicy: hostPolicy) {
            case .accept: return .admittedUpgrade(route: admitted)
            case .refuse(let response): return .response(response)
            }
        }
        // Not `??`: through its generic function the closure was wrapped twice (two blocks
        // and two thunk calls an upgrade, about 400 instructions).
        let makeHandler: (() -> any WebSocketHandler)?
        if let routed = pathRoutes?.webSocket {
            makeHandler = routed
        } else {
            makeHandler = upgradeFallback(for: request)
        }
        if let makeHandler {
            if isDraining { return .response(.error(503)) }
            switch WebSocketUpgrade.evaluate(request, hostPolicy: hostPolicy) {
            case .accept: return .upgrade(makeHandler: makeHandler)
            case .refuse(let response): return .response(response)
            }
        }
        if let prefix = configuration.webSocketPathPrefix,
           path == prefix || (path.hasPrefix(prefix) && path.dropFirst(prefix.count).first == "/") {
            return .response(.error(404))
        }
        guard isGetOrHead else { return .response(notAllowed) }
        if configuration.hiddenPaths.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) {
            return .response(.error(404))
        }
        guard let files else { return .response(.error(404)) }
        return .response(files.respond(to: request, segments: path.split(separator: "/").map(String.init)))
    }

    private func upgradeFallback(for request: HTTPRequestHead) -> (() -> any WebSocketHandler)? {
        guard let webSocketFallback,
              request.headers(named: "upgrade").contains(where: { $0.lowercased().contains("websocket") }) else { return nil }
        return webSocketFallback
    }
}
