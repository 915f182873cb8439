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
        let monitor = SessionMonitor()
        let metrics = monitor.metrics
        for wire in WireCatalog.viewModels(configuration, monitor: monitor) {
            if wire.access == .adminToken && configuration.adminToken == nil { continue }
            metrics.declare(viewModel: wire.name)
            let endpoint = SessionEndpoint(
                wire: wire, configuration: configuration, metrics: metrics, registry: monitor.registry, logger: logger)
            server.addWebSocketRoute("/ws/\(wire.name)") { SessionWebSocketHandler(endpoint: endpoint) }
        }
        server.addRoute("/metrics") { _ in
            HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics.render())
        }
        return metrics
    }

    /// Registers with the default settings but for the login delay.
    @discardableResult
    public static func register(on server: HTTPServer, loginDelay: Duration, logger: Logger = Logger(label: "rxlive.sessions")) -> SessionMetrics {
        register(on: server, configuration: SessionConfiguration(loginDelay: loginDelay), logger: logger)
    }
}
