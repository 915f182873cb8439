import HTTPServer
import Logging

/// The one entry point `rxlive` calls: every view model of `WireCatalog` on
/// `/ws/<name>`, and `GET /metrics`.
public enum SessionRoutes {
    /// Registers the session endpoints and `/metrics` on `server` (before `start()`).
    /// - Returns: the metrics the sessions count into.
    @discardableResult
    public static func register(
        on server: HTTPServer, configuration: SessionConfiguration = SessionConfiguration(),
        logger: Logger = Logger(label: "rxlive.sessions")
    ) -> SessionMetrics {
        let viewModels = WireCatalog.viewModels(configuration)
        let metrics = SessionMetrics(viewModels: viewModels.map(\.name))
        register(viewModels, on: server, loop: 0, metrics: metrics, configuration: configuration, logger: logger)
        return metrics
    }

    /// Registers the session endpoints and `/metrics` on every server of `group` (before
    /// `start()`); each loop's sessions count into one `SessionMetrics`, per loop as well.
    /// - Returns: the metrics the sessions count into.
    @discardableResult
    public static func register(
        on group: HTTPServerGroup, configuration: SessionConfiguration = SessionConfiguration(),
        logger: Logger = Logger(label: "rxlive.sessions")
    ) -> SessionMetrics {
        let viewModels = WireCatalog.viewModels(configuration)
        let metrics = SessionMetrics(viewModels: viewModels.map(\.name), loopCount: group.servers.count)
        for (loop, server) in group.servers.enumerated() {
            register(viewModels, on: server, loop: loop, metrics: metrics, configuration: configuration, logger: logger)
        }
        return metrics
    }

    private static func register(
        _ viewModels: [WireViewModel], on server: HTTPServer, loop: Int, metrics: SessionMetrics,
        configuration: SessionConfiguration, logger: Logger
    ) {
        for wire in viewModels {
            let endpoint = SessionEndpoint(
                wire: wire, configuration: configuration, metrics: metrics, logger: logger, loop: loop)
            server.addWebSocketRoute("/ws/\(wire.name)") { SessionWebSocketHandler(endpoint: endpoint) }
        }
        server.addRoute("/metrics") { _ in
            HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics.render())
        }
    }

    /// Registers with the default settings but for the login delay.
    @discardableResult
    public static func register(on server: HTTPServer, loginDelay: Duration, logger: Logger = Logger(label: "rxlive.sessions")) -> SessionMetrics {
        register(on: server, configuration: SessionConfiguration(loginDelay: loginDelay), logger: logger)
    }
}
