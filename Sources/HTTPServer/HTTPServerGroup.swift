import EventLoop
import Logging
import Synchronization

/// One `HTTPServer` per loop of an `EventLoopGroup` behind one listening socket: a
/// `TCPAcceptor` on the first loop hands each connection to the loop with the fewest open
/// connections, where that loop's server serves it for its whole life.
///
/// Make the group, add routes to every server and `start()` it on the thread that created the
/// loops, before `EventLoopGroup.run()`. From then on call `enterDrainGrace()` and
/// `shutdown(completion:)` on the first loop's thread (a signal handler there, say).
// @unchecked Sendable: each server is touched only on its own loop's thread (work for it goes
// through `execute`); the acceptor only on the first loop's thread; `pending` is atomic.
public final class HTTPServerGroup: @unchecked Sendable {
    /// The servers, one per loop, in the loops' order.
    public let servers: [HTTPServer]
    /// The settings every server was made with.
    public let configuration: HTTPServerConfiguration
    private let loops: EventLoopGroup
    private let logger: Logger
    private var acceptor: TCPAcceptor?
    private var shuttingDown = false

    /// A server on each loop of `loops`; nothing listens until `start()`.
    public init(configuration: HTTPServerConfiguration, loops: EventLoopGroup,
                logger: Logger = Logger(label: "rxlive.http")) {
        self.configuration = configuration
        self.loops = loops
        self.logger = logger
        servers = loops.loops.enumerated().map { index, loop in
            // Each server's lines ("draining", "drained", ...) say which loop they are about,
            // numbered as the dashboard and /metrics number the loops.
            var logger = logger
            logger[metadataKey: "loop"] = "\(index)"
            return HTTPServer(configuration: configuration, loop: loop, logger: logger)
        }
    }

    /// Starts every server, binds the shared socket and starts accepting. Throws
    /// `HTTPServerError` when the public directory is missing or the address cannot be used.
    public func start() throws {
        for server in servers { try server.startWithoutListening() }
        let acceptor: TCPAcceptor
        do {
            acceptor = try TCPAcceptor(loop: loops.first, host: configuration.host, port: configuration.port,
                                       reusePort: configuration.reusePort)
        } catch let error as EventLoopError {
            throw HTTPServerError.listenFailed(host: configuration.host, port: configuration.port, error)
        }
        acceptor.onError = { [logger] error in logger.error("accepting stopped", metadata: ["error": "\(error)"]) }
        for server in servers {
            acceptor.addTarget(server.loop) { [unowned server] tcp in server.serve(tcp) }
        }
        do {
            try acceptor.start()
        } catch let error as EventLoopError {
            acceptor.close()
            throw HTTPServerError.listenFailed(host: configuration.host, port: configuration.port, error)
        }
        self.acceptor = acceptor
        logger.info("listening", metadata: [
            "host": "\(configuration.host)", "port": "\(localPort)", "loops": "\(servers.count)",
        ])
    }

    /// The port listened on (the real one when configured with 0); 0 before `start()` and
    /// after `shutdown`. First loop's thread only.
    public var localPort: Int { acceptor?.localPort ?? 0 }

    /// `/healthz` answers 503 on every loop from now on while everything is still served
    /// (see `HTTPServer.enterDrainGrace()`).
    public func enterDrainGrace() {
        logger.info("drain grace: /healthz answers 503 on every loop")
        for server in servers { onLoop(of: server) { $0.enterDrainGrace() } }
    }

    /// Stops accepting, then shuts every server down (see `HTTPServer.shutdown`); `completion`
    /// runs once, on the loop of the server that finished last, when all have. Later calls
    /// only start nothing new.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        guard !shuttingDown else { return }
        shuttingDown = true
        // Closed before the servers hear of the shutdown: a hand-off already queued to a loop
        // runs before that loop's shutdown work, and no new one follows.
        acceptor?.close()
        acceptor = nil
        let pending = Counter(servers.count)
        for server in servers {
            onLoop(of: server) { server in
                server.shutdown {
                    if pending.decrement() == 0 { completion() }
                }
            }
        }
    }

    /// Runs `work` with `server` on the server's loop thread.
    private func onLoop(of server: HTTPServer, _ work: @escaping (HTTPServer) -> Void) {
        let handOver = LoopBound(server: server, work: work)
        server.loop.execute { handOver.work(handOver.server) }
    }

    /// A server and work for it, carried to the server's loop.
    // @unchecked Sendable: both are used only on the server's loop thread.
    private struct LoopBound: @unchecked Sendable {
        let server: HTTPServer
        let work: (HTTPServer) -> Void
    }

    /// Servers still draining.
    private final class Counter: Sendable {
        private let value: Atomic<Int>
        init(_ value: Int) { self.value = Atomic(value) }
        func decrement() -> Int { value.subtract(1, ordering: .acquiringAndReleasing).newValue }
    }
}
