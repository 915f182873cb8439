import Rx
import Synchronization

/// Counters of every session, shown by `GET /metrics` in Prometheus' text format.
/// Atomic, so sessions on any event loop can count.
public final class SessionMetrics: Sendable {
    private let viewModels: Mutex<[String]>
    private let open = Atomic<Int>(0)
    private let sessionsTotal: Mutex<[String: Int]>
    private let openByViewModel = Mutex<[String: Int]>([:])
    private let loops = Mutex<[(loop: ObjectIdentifier, metrics: LoopMetrics)]>([])
    private let latencyTimers = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    private let sent = Atomic<Int>(0)
    private let errorsSent = Atomic<Int>(0)

    /// Metrics for sessions of `viewModels` (each gets a `sessions_total` line from the start).
    public init(viewModels: [String]) {
        self.viewModels = Mutex(viewModels)
        sessionsTotal = Mutex(Dictionary(uniqueKeysWithValues: viewModels.map { ($0, 0) }))
    }

    /// Adds `viewModel` to those listed (with zero counts) if it is not there yet.
    public func declare(viewModel: String) {
        viewModels.withLock { if !$0.contains(viewModel) { $0.append(viewModel) } }
        sessionsTotal.withLock { if $0[viewModel] == nil { $0[viewModel] = 0 } }
    }

    /// The view models, in the order they were declared.
    public var viewModelNames: [String] { viewModels.withLock { $0 } }

    /// Sessions of `viewModel` open now.
    public func sessionsOpen(_ viewModel: String) -> Int { openByViewModel.withLock { $0[viewModel] ?? 0 } }

    /// The counters of the loop identified by `loop` (made on first use, numbered in that order).
    func loop(_ loop: ObjectIdentifier) -> LoopMetrics {
        loops.withLock { loops in
            if let known = loops.first(where: { $0.loop == loop }) { return known.metrics }
            let metrics = LoopMetrics(index: loops.count)
            loops.append((loop, metrics))
            return metrics
        }
    }

    /// Whether sessions time their messages now: only while a dashboard takes snapshots,
    /// so that without one a message costs no clock reading.
    var isTimingLatency: Bool { latencyTimers.load(ordering: .relaxed) > 0 }

    /// Sessions time their messages until the matching `stopTimingLatency()`.
    func startTimingLatency() { latencyTimers.wrappingAdd(1, ordering: .relaxed) }

    /// Ends one `startTimingLatency()`.
    func stopTimingLatency() { latencyTimers.wrappingSubtract(1, ordering: .relaxed) }

    /// Every loop's counters, in order.
    public var loopMetrics: [LoopMetrics] { loops.withLock { $0.map(\.metrics) } }

    /// Sessions open now.
    public var sessionsOpen: Int { open.load(ordering: .relaxed) }
    /// Client messages received (accepted or refused).
    public var messagesReceived: Int { received.load(ordering: .relaxed) }
    /// Server messages sent (ready, outputs, errors).
    public var messagesSent: Int { sent.load(ordering: .relaxed) }
    /// Error messages sent.
    public var errorsSentTotal: Int { errorsSent.load(ordering: .relaxed) }
    /// Sessions opened since start for `viewModel`.
    public func sessionsTotal(_ viewModel: String) -> Int { sessionsTotal.withLock { $0[viewModel] ?? 0 } }

    func sessionOpened(_ viewModel: String) {
        open.wrappingAdd(1, ordering: .relaxed)
        sessionsTotal.withLock { $0[viewModel, default: 0] += 1 }
        openByViewModel.withLock { $0[viewModel, default: 0] += 1 }
    }

    func sessionClosed(_ viewModel: String) {
        open.wrappingSubtract(1, ordering: .relaxed)
        openByViewModel.withLock { $0[viewModel, default: 0] -= 1 }
    }

    func messageReceived() {
        received.wrappingAdd(1, ordering: .relaxed)
    }

    func messageSent() {
        sent.wrappingAdd(1, ordering: .relaxed)
    }

    func errorSent() {
        errorsSent.wrappingAdd(1, ordering: .relaxed)
    }

    /// The Prometheus text exposition (version 0.0.4) of every counter and of
    /// `Resources.total`.
    public func render() -> String {
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ lines: [(labels: String, value: Int)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for line in lines { text += "\(name)\(line.labels) \(line.value)\n" }
        }
        metric("rxlive_sessions_open", "gauge", "WebSocket sessions open now.", [("", sessionsOpen)])
        let totals = sessionsTotal.withLock { $0 }
        metric("rxlive_sessions_total", "counter", "WebSocket sessions opened, by view model.",
               viewModelNames.map { ("{view_model=\"\($0)\"}", totals[$0] ?? 0) })
        metric("rxlive_messages_received_total", "counter", "Client messages received.", [("", messagesReceived)])
        metric("rxlive_messages_sent_total", "counter", "Server messages sent (ready, outputs, errors).", [("", messagesSent)])
        metric("rxlive_errors_sent_total", "counter", "Error messages sent for refused client messages.", [("", errorsSentTotal)])
        metric("rxlive_rx_resources", "gauge", "Live Rx resources (Resources.total).", [("", Int(Resources.total))])
        return text
    }
}
