import EventLoop
import FoundationEssentials
import Glibc
import HTTPServer
import Logging
import Prometheus
import RxEventLoop
import RxSwift
import Sessions
import TLS
import Accounts

/// Why the server could not start, reported in one line.
struct ServeError: Error, CustomStringConvertible {
    let description: String
}

/// A server that has started: its loops, its HTTP servers and the drain that ends it.
/// `serve` runs it under the process's signals; `RxLiveService` under swift-service-lifecycle.
final class RunningServer: @unchecked Sendable {  // `shutdown` is used on the first loop's thread only
    let loops: EventLoopGroup
    let servers: HTTPServerGroup
    let tls: ReloadableTLSContext?
    private let shutdown: ShutdownSequence
    /// Signing in, when the app has accounts: its threads end with the server (`runLoops`).
    private let signIn: SignInBackend?

    private init(loops: EventLoopGroup, servers: HTTPServerGroup, tls: ReloadableTLSContext?, shutdown: ShutdownSequence,
                 signIn: SignInBackend?) {
        self.loops = loops
        self.servers = servers
        self.tls = tls
        self.shutdown = shutdown
        self.signIn = signIn
    }

    /// Runs the loops until the drain has ended them, then stops the sign-in's threads.
    func runLoops() {
        loops.run()
        signIn?.stop()
    }

    /// The port the server listens on (the one asked for, or the one the system chose for 0).
    var port: Int { servers.localPort }

    /// Starts the drain grace, or the drain (as a SIGTERM does); from any thread.
    func beginShutdown() {
        loops.first.execute { [self] in shutdown.signalled() }
    }

    /// Sets up and starts serving `configuration` for `app`: the loops, TLS, the sessions of
    /// the app's view models, `/rxlive.js` and `/metrics`. Nothing runs until `loops.run()`.
    ///
    /// - Throws: `ServeError` when the server cannot start (a port in use, say).
    static func start(_ configuration: Configuration, app: RxLiveApp, logger: Logger) throws -> RunningServer {
        // libuv writes with write(2): a peer that reset its connection must cost an EPIPE on that
        // connection, not the SIGPIPE that would end the process.
        signal(SIGPIPE, SIG_IGN)
        let loops: EventLoopGroup
        do {
            loops = try EventLoopGroup(count: configuration.loops)
        } catch {
            throw ServeError(description: "cannot start the event loops: \(error)")
        }
        // Rx's MainScheduler (the login example's `delay`) runs on the loop of the thread that schedules,
        // so each session's timers stay on its own loop.
        MainScheduler.setHost(LoopScheduler.followingCurrentLoop(fallback: loops.first))

        let openFiles = FileDescriptorLimit.raiseToHardLimit()
        var serverConfiguration = configuration.server
        serverConfiguration.securityHeaders = app.securityHeaders
        if serverConfiguration.securityHeaders.strictTransportSecurityMaxAge != nil {
            serverConfiguration.securityHeaders.strictTransportSecurityMaxAge = configuration.hstsMaxAge
        }
        if let certificate = configuration.tlsCertificate, let key = configuration.tlsKey {
            do {
                serverConfiguration.tls = try ReloadableTLSContext(certificatePath: certificate, keyPath: key)
            } catch {
                throw ServeError(description: "\(error)")
            }
        }
        if !configuration.servesDashboard {
            // Its page would only show "disconnected": without the dashboard there is none.
            serverConfiguration.hiddenPaths.append("/dashboard")
        }
        let servers = HTTPServerGroup(configuration: serverConfiguration, loops: loops, logger: logger)
        var sessions = configuration.sessions
        if let folder = configuration.record {
            do {
                sessions.recorder = try SessionRecorder(directory: folder, maxFiles: configuration.recordMaxFiles,
                                                        maxBytes: configuration.recordMaxBytes)
            } catch {
                throw ServeError(description: "--record: \(error)")
            }
            logger.info("recording sessions", metadata: ["folder": "\(folder)"])
        }
        var accounts: (@Sendable (String) -> StoreLoginService)?
        var signingIn: (@Sendable (WireClient) -> StoreLoginService)?
        var signIn: SignInBackend?
        if app.accounts, configuration.loginService == .store {
            let backend = try LoginBackend.start(configuration, logger: logger)
            let fallback = loops.first
            accounts = { address in backend.service(clientAddress: address, fallback: fallback, logger: logger) }
            let signInBackend = SignInBackend(store: backend.store, policy: configuration.signInPolicy, sessions: sessions.signedInSessions,
                                              trustedProxies: sessions.trustedProxies, logger: logger)
            signingIn = { client in
                backend.service(clientAddress: client.address, fallback: fallback, logger: logger) { username in
                    signInBackend.announceSignIn(of: username, to: client)
                }
            }
            sessions.identify = signInBackend.identifier
            signIn = signInBackend
        }
        sessions.adminToken = configuration.servesDashboard ? configuration.adminToken ?? randomAdminToken() : nil
        let viewModels = app.viewModels(RxLiveContext(configuration: configuration, accounts: accounts, signingIn: signingIn))
        let metrics = SessionRoutes.register(viewModels, on: servers, configuration: sessions, logger: logger)
        if let signIn {
            for server in servers.servers { SignInRoutes.register(on: server, backend: signIn) }
        }
        let registry = RxLiveApp.metricsRegistry
        let exporter = SessionMetricsExporter(metrics: metrics, registry: registry)
        for server in servers.servers {
            // The client library every app's page imports, from the binary itself.
            server.addRoute("/rxlive.js") { _ in
                HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: ClientScript.source)
            }
            // The sessions' counters and everything the app records through swift-metrics.
            server.addRoute("/metrics") { _ in
                exporter.update()
                return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                                    body: registry.emitToBuffer())
            }
        }
        do {
            try servers.start()
        } catch HTTPServerError.listenFailed(let host, let port, let cause) where cause.isAddressInUse {
            throw ServeError(description: "cannot listen on \(host):\(port): the port is already in use; choose another with --port (RXLIVE_PORT)")
        } catch {
            throw ServeError(description: "\(error)")
        }
        if accounts != nil {
            logger.info("logins are checked against \(configuration.database)", metadata: ["workers": "\(configuration.loginWorkers)"])
        }
        let scheme = serverConfiguration.tls == nil ? "http" : "https"
        let origin = "\(scheme)://\(linkHost(configuration.host)):\(servers.localPort)"
        logger.info("\(app.name) \(app.version) listening on \(origin)",
                    metadata: ["public": "\(configuration.publicDirectory ?? "-")", "open-files": "\(openFiles)",
                               "loops": "\(configuration.loops)"])
        if let token = sessions.adminToken {
            // A token made here is shown once, to whoever started the server; a given one never.
            let link = configuration.adminToken == nil ? "#token=\(token)" : " (with the --admin-token token)"
            logger.info("dashboard: \(origin)/dashboard\(link)")
        } else {
            logger.info("dashboard: off (see --dashboard and --admin-token)")
        }

        // One descriptor per session: past the file limit a peer cannot even be accepted, so say
        // at start how many sessions this process can hold (docs/OPERATIONS.md: raising it).
        let sessionsAllowed = FileDescriptorLimit.sessionsAllowed(underLimit: openFiles)
        logger.info("""
            sessions: at most \(sessionsAllowed) at once under this process's limit of \(openFiles) open files \
            (the hard limit; docs/OPERATIONS.md, "Many sessions on one host", says how to raise it)
            """)

        let shutdown = ShutdownSequence(servers: servers, loops: loops, grace: configuration.drainGrace, logger: logger)
        return RunningServer(loops: loops, servers: servers, tls: serverConfiguration.tls, shutdown: shutdown, signIn: signIn)
    }
}

/// Serves `configuration` on `configuration.loops` event loops (the first on the calling
/// thread) until SIGTERM or SIGINT, then drains every loop and returns.
///
/// The first signal starts the drain grace (when there is one): `/healthz` answers 503 while
/// everything is still served. Then, or at once on a second signal, the server stops
/// accepting, closes every session with 1001 and returns when every loop is done, at the
/// latest `shutdownTimeout` later (connections still open then are dropped).
///
/// - Throws: `ServeError` when the server cannot start (a port in use, say).
func serve(_ configuration: Configuration, app: RxLiveApp, logger: Logger) throws {
    let server = try RunningServer.start(configuration, app: app, logger: logger)
    defer { MainScheduler.resetHost() }
    let loops = server.loops
    for signal in [SIGTERM, SIGINT] {
        do {
            _ = try loops.first.onSignal(signal) { server.beginShutdown() }
        } catch {
            throw ServeError(description: "cannot watch signal \(signal): \(error)")
        }
    }
    // SIGHUP reloads the TLS certificate and key; without TLS it is logged and ignored, as
    // are SIGUSR1 and SIGUSR2: no signal but SIGTERM and SIGINT ends the server.
    let tls = server.tls
    let reasons: [(Int32, String)] = [(SIGHUP, "SIGHUP"), (SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2")]
    for (number, name) in reasons {
        do {
            _ = try loops.first.onSignal(number) {
                guard number == SIGHUP else {
                    logger.notice("\(name) ignored: it means nothing to this server (SIGTERM or SIGINT drains it)")
                    return
                }
                guard let tls else {
                    logger.notice("SIGHUP ignored: it reloads the TLS certificate and key, and this server serves no TLS")
                    return
                }
                do {
                    try tls.reload()
                    logger.info("reloaded the TLS certificate and key", metadata: ["certificate": "\(tls.certificatePath)"])
                } catch {
                    logger.error("TLS reload failed; still serving the previous certificate: \(error)")
                }
            }
        } catch {
            throw ServeError(description: "cannot watch \(name): \(error)")
        }
    }
    // Every handler is in place: a signal held back since the start is delivered now.
    TerminationSignals.release()
    server.runLoops()
}

extension Configuration {
    /// The sessions' part of the configuration.
    var sessions: SessionConfiguration {
        var sessions = SessionConfiguration()
        sessions.messageLimit = messageRate > 0 ? RateLimit(perSecond: messageRate, burst: max(1, Int(messageRate * 2))) : nil
        sessions.trustedProxies = TrustedProxies(trustedProxies)
        return sessions
    }

    /// How long sign-ins last.
    var signInPolicy: SignInPolicy {
        SignInPolicy(idleTimeout: Double(sessionIdleTimeout.components.seconds), lifetime: Double(sessionLifetime.components.seconds))
    }

    /// The HTTP/WebSocket server's part of the configuration.
    var server: HTTPServerConfiguration {
        var server = HTTPServerConfiguration(host: host, port: port, publicDirectory: publicDirectory)
        server.maxMessageSize = maxMessageSize
        server.pingInterval = pingInterval
        server.pongTimeout = pongTimeout
        server.allowedOrigins = allowedOrigins.isEmpty ? nil : allowedOrigins
        server.serverNames = serverNames.isEmpty ? nil : serverNames
        server.perMessageDeflate = deflate
        server.reusePort = reusePort
        server.shutdownTimeout = shutdownTimeout
        server.trustedProxies = TrustedProxies(trustedProxies)
        // The routes an RxLive app has: the health check, and sessions under /ws/<name>.
        server.healthCheckPath = "/healthz"
        server.webSocketPathPrefix = "/ws"
        return server
    }
}

/// The host of a link a person can open to a server listening on `host`: an IPv6 address in
/// brackets, and the loopback address for a server listening on every address.
func linkHost(_ host: String) -> String {
    switch host {
    case "0.0.0.0": return "127.0.0.1"
    case "::", "[::]": return "[::1]"
    default: return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}

/// 128 random bits in hex, from the system's secure generator.
private func randomAdminToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
        let hex = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
}
