// Prometheus's Gauge and Counter by their module's name: RxLive re-exports swift-metrics', which has types of the same names.
import Prometheus
import RxSwift
import Sessions
import Synchronization

/// Puts the sessions' counters into a Prometheus registry under the names `/metrics` has
/// always had (`rxlive_sessions_open`, `rxlive_messages_received_total`, …), beside whatever
/// the app records through swift-metrics.
///
/// Sessions keep counting into their loops' own atomics (nothing more per message); the
/// registry's instruments are brought up to date when `/metrics` is read.
final class SessionMetricsExporter: Sendable {
    private let metrics: SessionMetrics
    private let sessionsOpen: Prometheus.Gauge
    private let sessionsTotal: [(viewModel: String, counter: ExportedCounter)]
    private let messagesReceived: ExportedCounter
    private let messagesSent: ExportedCounter
    private let errorsSent: ExportedCounter
    private let rxResources: Prometheus.Gauge
    private let loops: Prometheus.Gauge
    private let loopSessionsOpen: [Prometheus.Gauge]
    private let loopSessionsTotal: [ExportedCounter]

    /// Instruments in `registry` for `metrics`, whose view models and loops are all declared.
    init(metrics: SessionMetrics, registry: PrometheusCollectorRegistry) {
        self.metrics = metrics
        sessionsOpen = registry.makeGauge(descriptor: named("sessions", "open", "WebSocket sessions open now."))
        sessionsTotal = metrics.viewModelNames.map { name in
            (name, ExportedCounter(registry.makeCounter(descriptor: named("sessions", "total", "WebSocket sessions opened, by view model."), labels: [("view_model", name)])))
        }
        messagesReceived = ExportedCounter(registry.makeCounter(descriptor: named("messages_received", "total", "Client messages received.")))
        messagesSent = ExportedCounter(registry.makeCounter(descriptor: named("messages_sent", "total", "Server messages sent (ready, outputs, errors).")))
        errorsSent = ExportedCounter(registry.makeCounter(descriptor: named("errors_sent", "total", "Error messages sent for refused client messages.")))
        rxResources = registry.makeGauge(descriptor: named("rx", "resources", "Live Rx resources (Resources.total)."))
        loops = registry.makeGauge(descriptor: named("loops", "", "Event loops serving sessions, one thread each."))
        loopSessionsOpen = metrics.loopMetrics.map { loop in
            registry.makeGauge(descriptor: named("loop_sessions", "open", "WebSocket sessions open now, by event loop."), labels: [("loop", "\(loop.index)")])
        }
        loopSessionsTotal = metrics.loopMetrics.map { loop in
            ExportedCounter(registry.makeCounter(descriptor: named("loop_sessions", "total", "WebSocket sessions opened, by event loop."), labels: [("loop", "\(loop.index)")]))
        }
    }

    /// Brings every instrument up to the sessions' counts now.
    func update() {
        sessionsOpen.set(Int64(metrics.sessionsOpen))
        for (viewModel, counter) in sessionsTotal { counter.advance(to: metrics.sessionsTotal(viewModel)) }
        messagesReceived.advance(to: metrics.messagesReceived)
        messagesSent.advance(to: metrics.messagesSent)
        errorsSent.advance(to: metrics.errorsSentTotal)
        rxResources.set(Int64(Resources.total))
        loops.set(Int64(metrics.loopMetrics.count))
        for (gauge, loop) in zip(loopSessionsOpen, metrics.loopMetrics) { gauge.set(Int64(loop.sessionsOpen)) }
        for (counter, loop) in zip(loopSessionsTotal, metrics.loopMetrics) { counter.advance(to: loop.sessionsOpened) }
    }
}

/// `rxlive_<metricName>_<unit>`, described by `help`.
private func named(_ metricName: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
    MetricNameDescriptor(namespace: "rxlive", metricName: metricName, unitName: unit, helpText: help)
}

/// A Prometheus counter that follows a count kept elsewhere: each update adds what the
/// count grew by since the last one (a counter only goes up).
private final class ExportedCounter: Sendable {
    private let counter: Prometheus.Counter
    private let exported = Mutex<Int>(0)

    init(_ counter: Prometheus.Counter) {
        self.counter = counter
    }

    func advance(to count: Int) {
        let growth = exported.withLock { exported -> Int in
            let growth = max(0, count - exported)
            exported += growth
            return growth
        }
        if growth > 0 { counter.increment(by: Int64(growth)) }
    }
}
