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
        register(viewModels, on: group.servers, configuration: configuration, logger: logger)
    }

    /// Registers `viewModels` on one server (before `start()`).
    @discardableResult
    public static func register(
        _ viewModels: [WireViewModel], on server: HTTPServer,
        configuration: SessionConfiguration = SessionConfiguration(),
        logger: Logger = Logger(label: "rxlive.sessions")
    ) -> SessionMetrics {
        register(viewModels, on: [server], configuration: configuration, logger: logger)
    }

    private static func register(
        _ declared: [WireViewModel], on servers: [HTTPServer], configuration: SessionConfiguration, logger: Logger
    ) -> SessionMetrics {
        let monitor = SessionMonitor(metrics: SessionMetrics(viewModels: [], loopCount: servers.count))
        let metrics = monitor.metrics
        let viewModels = (declared + [.dashboard(monitor: monitor)])
            .filter { $0.access != .adminToken || configuration.adminToken != nil }
        var names = Set<String>()
        for wire in viewModels {
            precondition(names.insert(wire.name).inserted, "two view models are named \(wire.name)")
            metrics.declare(viewModel: wire.name)
        }
        for (loop, server) in servers.enumerated() {
            for wire in viewModels {
                let endpoint = SessionEndpoint(wire: wire, configuration: configuration, metrics: metrics,
                                               registry: monitor.registry, logger: logger, loop: loop,
                                               eventLoop: server.loop)
                server.addWebSocketRoute("/ws/\(wire.name)") { Session(endpoint: endpoint) }
            }
        }
        return metrics
    }
}
