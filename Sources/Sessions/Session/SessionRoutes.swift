import HTTPServer
import Logging

/// Serves view models as sessions: each on `/ws/<name>`, and the dashboard's too when
/// there is an admin token.
public enum SessionRoutes {
    /// Registers `viewModels` on every server of `group` (before `start()`);
    /// each loop's sessions count into one `SessionMetrics`, per loop as well, and one
    /// dashboard monitor sees the sessions of every loop.
    /// - Returns: the metrics the sessions count into.
    @discardableResult
    public static func register(
        _ viewModels: [WireViewModel], on group: HTTPServerGroup,
        configuration: SessionConfiguration = SessionConfiguration(),
        logger: Logger = Logger(label: "rxlive.sessions")
    ) -> SessionMetrics {
        let servers = group.servers
        let monitor = SessionMonitor(metrics: SessionMetrics(viewModels: [], loopCount: servers.count))
        let metrics = monitor.metrics
        // A view model behind the admin token (the dashboard's) is served only when there is one.
        let served = (viewModels + [.dashboard(monitor: monitor)])
            .filter { $0.access != .adminToken || configuration.adminToken != nil }
        monitor.registry.recordings.allow(served.filter(\.isRecorded).map(\.name))
        var names = Set<String>()
        for wire in served {
            precondition(names.insert(wire.name).inserted, "two view models are named \(wire.name)")
            metrics.declare(viewModel: wire.name)
        }
        for (loop, server) in servers.enumerated() {
            for wire in served {
                let endpoint = SessionEndpoint(wire: wire, configuration: configuration, metrics: metrics,
                                               registry: monitor.registry, logger: logger, loop: loop,
                                               eventLoop: server.loop)
                if endpoint.admitsEveryUpgrade {
                    // Nothing to decide: upgraded at once, with no request context, answer or
                    // deadline made for an admission (about 2,000 instructions a session).
                    server.addWebSocketRoute("/ws/\(wire.name)") { Session(endpoint: endpoint) }
                } else {
                    server.addWebSocketRoute("/ws/\(wire.name)", admit: endpoint.admit) { identity in
                        Session.make(endpoint: endpoint, identity: identity as? SignedInUser)
                    }
                }
            }
        }
        return metrics
    }
}
