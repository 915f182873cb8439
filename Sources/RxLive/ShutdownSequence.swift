import EventLoop
import HTTPServer
import Logging

/// What SIGTERM and SIGINT do, on the first loop's thread: the drain grace, then the drain,
/// then every loop stops.
final class ShutdownSequence {
    private enum Phase { case serving, grace, draining }

    private let servers: HTTPServerGroup
    private let loops: EventLoopGroup
    private let grace: Duration
    private let logger: Logger
    private var phase = Phase.serving
    private var graceTimer: TimerHandle?

    init(servers: HTTPServerGroup, loops: EventLoopGroup, grace: Duration, logger: Logger) {
        self.servers = servers
        self.loops = loops
        self.grace = grace
        self.logger = logger
    }

    func signalled() {
        switch phase {
        case .serving where grace > .zero:
            phase = .grace
            logger.info("shutting down: /healthz answers 503 for the drain grace",
                        metadata: ["grace": "\(grace)"])
            servers.enterDrainGrace()
            graceTimer = try? loops.first.scheduleTimer(after: grace) { [unowned self] in drain() }
            if graceTimer == nil { drain() }
        case .serving, .grace:
            // A second signal during the grace ends it early.
            drain()
        case .draining:
            break
        }
    }

    private func drain() {
        guard phase != .draining else { return }
        phase = .draining
        graceTimer?.cancel()
        graceTimer = nil
        logger.info("shutting down: draining sessions")
        let loops = self.loops
        let logger = self.logger
        servers.shutdown {
            logger.info("stopped")
            loops.stop()
        }
    }
}
