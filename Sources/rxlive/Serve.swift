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

/// Serves `configuration` on `configuration.loops` event loops (the first on the calling
/// thread) until SIGTERM or SIGINT, then drains every loop and returns.
///
/// The first signal starts the drain grace (when there is one): `/healthz` answers 503 while
/// everything is still served. Then, or at once on a second signal, the server stops
/// accepting, closes every session with 1001 and returns when every loop is done, at the
/// latest `shutdownTimeout` later (connections still open then are dropped).
///
/// - Throws: `ServeError` when the server cannot start (a port in use, say).
func serve(_ configuration: Configuration, logger: Logger) throws {
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
    let servers = HTTPServerGroup(configuration: configuration.server, loops: loops, logger: logger)
    SessionRoutes.register(on: servers, configuration: configuration.sessions, logger: logger)
    do {
        try servers.start()
    } catch {
        throw ServeError(description: "\(error)")
    }
    logger.info("rxlive \(RxLiveVersion.current) listening on http://\(configuration.host):\(servers.localPort)",
                metadata: ["public": "\(configuration.publicDirectory ?? "-")", "open-files": "\(openFiles)",
                           "loops": "\(configuration.loops)"])

    let shutdown = ShutdownSequence(servers: servers, loops: loops, grace: configuration.drainGrace, logger: logger)
    for signal in [SIGTERM, SIGINT] {
        do {
            _ = try loops.first.onSignal(signal) { shutdown.signalled() }
        } catch {
            throw ServeError(description: "cannot watch signal \(signal): \(error)")
        }
    }
    loops.run()
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
        server.shutdownTimeout = shutdownTimeout
        return server
    }
}
