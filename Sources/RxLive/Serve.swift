import EventLoop
import Foundation
import HTTPServer
import Logging
import RxSwift
import Sessions
import TLS
import Accounts

/// Why the server could not start, reported in one line.
struct ServeError: Error, CustomStringConvertible {
    let description: String
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
    // libuv writes with write(2): a peer that reset its connection must cost an EPIPE on that
    // connection, not the SIGPIPE that would end the process.
    signal(SIGPIPE, SIG_IGN)
    let loops: EventLoopGroup
    do {
        loops = try EventLoopGroup(count: configuration.loops)
    } catch {
        throw ServeError(description: "cannot start the event loops: \(error)")
    }
    // Rx's MainScheduler (the seed's `delay`) runs on the loop of the thread that schedules,
    // so each session's timers stay on its own loop.
    MainScheduler.setHost(LoopScheduler.followingCurrentLoop(fallback: loops.first))
    defer { MainScheduler.resetHost() }

    let openFiles = FileDescriptorLimit.raiseToHardLimit()
    var serverConfiguration = configuration.server
    if let certificate = configuration.tlsCertificate, let key = configuration.tlsKey {
        do {
            serverConfiguration.tls = try ReloadableTLSContext(certificatePath: certificate, keyPath: key)
        } catch {
            throw ServeError(description: "\(error)")
        }
    }
    let servers = HTTPServerGroup(configuration: serverConfiguration, loops: loops, logger: logger)
    var sessions = configuration.sessions
    var accounts: (@Sendable (String) -> StoreLoginService)?
    if app.accounts, configuration.loginService == .store {
        let backend = try LoginBackend.start(configuration, logger: logger)
        let fallback = loops.first
        accounts = { address in backend.service(clientAddress: address, fallback: fallback, logger: logger) }
        logger.info("logins are checked against \(configuration.database)", metadata: ["workers": "\(configuration.loginWorkers)"])
    }
    sessions.adminToken = configuration.servesDashboard ? configuration.adminToken ?? randomAdminToken() : nil
    let viewModels = app.viewModels(RxLiveContext(configuration: configuration, accounts: accounts))
    SessionRoutes.register(viewModels, on: servers, configuration: sessions, logger: logger)
    for server in servers.servers {
        // The client library every app's page imports, from the binary itself.
        server.addRoute("/rxlive.js") { _ in
            HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: ClientScript.source)
        }
    }
    do {
        try servers.start()
    } catch {
        throw ServeError(description: "\(error)")
    }
    let scheme = serverConfiguration.tls == nil ? "http" : "https"
    logger.info("\(app.name) \(app.version) listening on \(scheme)://\(configuration.host):\(servers.localPort)",
                metadata: ["public": "\(configuration.publicDirectory ?? "-")", "open-files": "\(openFiles)",
                           "loops": "\(configuration.loops)"])
    if let token = sessions.adminToken {
        // A token made here is shown once, to whoever started the server; a given one never.
        let link = configuration.adminToken == nil ? "#token=\(token)" : " (with the --admin-token token)"
        logger.info("dashboard: \(scheme)://\(configuration.host):\(servers.localPort)/dashboard\(link)")
    } else {
        logger.info("dashboard: off (see --dashboard and --admin-token)")
    }

    let shutdown = ShutdownSequence(servers: servers, loops: loops, grace: configuration.drainGrace, logger: logger)
    for signal in [SIGTERM, SIGINT] {
        do {
            _ = try loops.first.onSignal(signal) { shutdown.signalled() }
        } catch {
            throw ServeError(description: "cannot watch signal \(signal): \(error)")
        }
    }
    if let tls = serverConfiguration.tls {
        do {
            _ = try loops.first.onSignal(SIGHUP) {
                do {
                    try tls.reload()
                    logger.info("reloaded the TLS certificate and key", metadata: ["certificate": "\(tls.certificatePath)"])
                } catch {
                    logger.error("TLS reload failed; still serving the previous certificate: \(error)")
                }
            }
        } catch {
            throw ServeError(description: "cannot watch SIGHUP: \(error)")
        }
    }
    loops.run()
}

extension Configuration {
    /// The sessions' part of the configuration.
    var sessions: SessionConfiguration {
        var sessions = SessionConfiguration()
        sessions.messageLimit = messageRate > 0 ? RateLimit(perSecond: messageRate, burst: max(1, Int(messageRate * 2))) : nil
        sessions.trustedProxies = Set(trustedProxies)
        return sessions
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
        server.shutdownTimeout = shutdownTimeout
        return server
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
