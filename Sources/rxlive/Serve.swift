import EventLoop
import Foundation
import HTTPServer
import Logging
import Rx
import Sessions
import TLS

/// Why the server could not start, reported in one line.
struct ServeError: Error, CustomStringConvertible {
    let description: String
}

/// Serves `configuration` on an event loop on the calling thread until SIGTERM
/// or SIGINT, then drains the sessions and returns.
///
/// - Throws: `ServeError` when the server cannot start (a port in use, say).
func serve(_ configuration: Configuration, logger: Logger) throws {
    let loop: EventLoop
    do {
        loop = try EventLoop()
    } catch {
        throw ServeError(description: "cannot start the event loop: \(error)")
    }
    // Rx's MainScheduler (the seed's `delay`) runs on this loop from now on.
    MainScheduler.setHost(LoopScheduler.followingCurrentLoop(fallback: loop))
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
    let server = HTTPServer(configuration: serverConfiguration, loop: loop, logger: logger)
    var sessions = configuration.sessions
    if configuration.loginService == .store {
        let backend = try LoginBackend.start(configuration, logger: logger)
        sessions.loginService = { address in backend.service(clientAddress: address, fallback: loop, logger: logger) }
        logger.info("logins are checked against \(configuration.database)", metadata: ["workers": "\(configuration.loginWorkers)"])
    }
    sessions.adminToken = configuration.servesDashboard ? configuration.adminToken ?? randomAdminToken() : nil
    SessionRoutes.register(on: server, configuration: sessions, logger: logger)
    do {
        try server.start()
    } catch {
        throw ServeError(description: "\(error)")
    }
    let scheme = serverConfiguration.tls == nil ? "http" : "https"
    logger.info("rxlive \(RxLiveVersion.current) listening on \(scheme)://\(configuration.host):\(server.localPort)",
                metadata: ["public": "\(configuration.publicDirectory ?? "-")", "open-files": "\(openFiles)"])
    if let token = sessions.adminToken {
        // A token made here is shown once, to whoever started the server; a given one never.
        let link = configuration.adminToken == nil ? "#token=\(token)" : " (with the --admin-token token)"
        logger.info("dashboard: \(scheme)://\(configuration.host):\(server.localPort)/dashboard\(link)")
    } else {
        logger.info("dashboard: off (see --dashboard and --admin-token)")
    }

    for signal in [SIGTERM, SIGINT] {
        do {
            _ = try loop.onSignal(signal) {
                guard !server.isDraining else { return }
                logger.info("shutting down: draining sessions")
                server.shutdown {
                    logger.info("stopped")
                    loop.stop()
                }
            }
        } catch {
            throw ServeError(description: "cannot watch signal \(signal): \(error)")
        }
    }
    if let tls = serverConfiguration.tls {
        do {
            _ = try loop.onSignal(SIGHUP) {
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
    loop.run()
}

extension Configuration {
    /// The sessions' part of the configuration.
    var sessions: SessionConfiguration {
        var sessions = SessionConfiguration(loginDelay: loginDelay)
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
