import EventLoop
import Foundation
import HTTPServer
import Logging
import Rx
import Sessions

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
    let server = HTTPServer(configuration: configuration.server, loop: loop, logger: logger)
    SessionRoutes.register(on: server, configuration: configuration.sessions, logger: logger)
    do {
        try server.start()
    } catch {
        throw ServeError(description: "\(error)")
    }
    logger.info("rxlive \(RxLiveVersion.current) listening on http://\(configuration.host):\(server.localPort)",
                metadata: ["public": "\(configuration.publicDirectory ?? "-")", "open-files": "\(openFiles)"])

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
    loop.run()
}

extension Configuration {
    /// The sessions' part of the configuration.
    var sessions: SessionConfiguration {
        var sessions = SessionConfiguration(loginDelay: loginDelay)
        sessions.messageLimit = messageRate > 0 ? RateLimit(perSecond: messageRate, burst: max(1, Int(messageRate * 2))) : nil
        return sessions
    }

    /// The HTTP/WebSocket server's part of the configuration.
    var server: HTTPServerConfiguration {
        var server = HTTPServerConfiguration(host: host, port: port, publicDirectory: publicDirectory)
        server.maxMessageSize = maxMessageSize
        server.pingInterval = pingInterval
        server.pongTimeout = pongTimeout
        server.allowedOrigins = allowedOrigins.isEmpty ? nil : allowedOrigins
        server.perMessageDeflate = deflate
        return server
    }
}
