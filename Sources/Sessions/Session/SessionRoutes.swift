import HTTPServer
import Logging

/// The one entry point `rxlive` calls: every view model of `WireCatalog` on
/// `/ws/<name>` (those that need the admin token only when there is one), and `GET /metrics`.
public enum SessionRoutes {
    /// Registers the session endpoints and `/metrics` on `server` (before `start()`).
    /// - Returns: the metrics the sessions count into.
    @discardableResult
    public static func register(
        on server: HTTPServer, configuration: SessionConfiguration = SessionConfiguration(),
        logger: Logger = Logger(label: "rxlive.sessions")
    ) -> SessionMetrics {
        register(on: [server], configuration: configuration, logger: logger)
    }

    /// Registers the session endpoints and `/metrics` on every server of `group` (before
    /// `start()`); each loop's sessions count into one `SessionMetrics`, per loop as well,
    /// and one dashboard monitor sees the sessions of every loop.
    /// - Returns: the metrics the sessions count into.
    @discardableResult
    public static func register(
        on group: HTTPServerGroup, configuration: SessionConfiguration = SessionConfiguration(),
        logger: Logger = Logger(label: "rxlive.sessions")
    ) -> SessionMetrics {
        register(on: group.servers, configuration: configuration, logger: logger)
    }

    /// Registers with the default settings but for the login delay.
    @discardableResult
    public static func register(on server: HTTPServer, loginDelay: Duration, logger: Logger = Logger(label: "rxlive.sessions")) -> SessionMetrics {
        register(on: server, configuration: SessionConfiguration(loginDelay: loginDelay), logger: logger)
    }

    private static func register(
        on servers: [HTTPServer], configuration: SessionConfiguration, logger: Logger
    ) -> SessionMetrics {
        let monitor = SessionMonitor(metrics: SessionMetrics(viewModels: [], loopCount: servers.count))
        let metrics = monitor.metrics
        let viewModels = WireCatalog.viewModels(configuration, monitor: monitor)
            .filter { $0.access != .adminToken || configuration.adminToken != nil }
        for wire in viewModels { metrics.declare(viewModel: wire.name) }
        for (loop, server) in servers.enumerated() {
            for wire in viewModels {
                let endpoint = SessionEndpoint(wire: wire, configuration: configuration, metrics: metrics,
                                               registry: monitor.registry, logger: logger, loop: loop,
                                               eventLoop: server.loop)
                server.addWebSocketRoute("/ws/\(wire.name)") { Session(endpoint: endpoint) }
            }
            server.addRoute("/metrics") { _ in
                HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics.render())
            }
        }
        return metrics
    }
}
