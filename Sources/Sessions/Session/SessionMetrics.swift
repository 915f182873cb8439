import Rx
import Synchronization

/// Counters of every session, shown by `GET /metrics` in Prometheus' text format.
///
/// Each event loop counts into its own atomics, so loops on different cores never write
/// the same memory per message; the totals are summed when read.
public final class SessionMetrics: Sendable {
    private let viewModels: [String]
    private let loops: [LoopSessionCounts]
    private let sessionsTotal: Mutex<[String: Int]>

    /// Metrics for sessions of `viewModels` (each gets a `sessions_total` line from the start)
    /// served by `loopCount` event loops.
    public init(viewModels: [String], loopCount: Int = 1) {
        self.viewModels = viewModels
        loops = (0..<max(1, loopCount)).map { _ in LoopSessionCounts() }
        sessionsTotal = Mutex(Dictionary(uniqueKeysWithValues: viewModels.map { ($0, 0) }))
    }

    /// Sessions open now.
    public var sessionsOpen: Int { sum { $0.open.load(ordering: .relaxed) } }
    /// Client messages received (accepted or refused).
    public var messagesReceived: Int { sum { $0.received.load(ordering: .relaxed) } }
    /// Server messages sent (ready, outputs, errors).
    public var messagesSent: Int { sum { $0.sent.load(ordering: .relaxed) } }
    /// Error messages sent.
    public var errorsSentTotal: Int { sum { $0.errorsSent.load(ordering: .relaxed) } }
    /// Sessions opened since start for `viewModel`.
    public func sessionsTotal(_ viewModel: String) -> Int { sessionsTotal.withLock { $0[viewModel] ?? 0 } }
    /// Sessions open now on each loop, in the loops' order.
    public var sessionsOpenPerLoop: [Int] { loops.map { $0.open.load(ordering: .relaxed) } }
    /// Sessions opened since start on each loop, in the loops' order.
    public var sessionsTotalPerLoop: [Int] { loops.map { $0.opened.load(ordering: .relaxed) } }

    private func sum(_ counter: (LoopSessionCounts) -> Int) -> Int {
        loops.reduce(0) { $0 &+ counter($1) }
    }

    func sessionOpened(_ viewModel: String, loop: Int = 0) {
        loops[loop].open.wrappingAdd(1, ordering: .relaxed)
        loops[loop].opened.wrappingAdd(1, ordering: .relaxed)
        sessionsTotal.withLock { $0[viewModel, default: 0] += 1 }
    }

    func sessionClosed(loop: Int = 0) {
        loops[loop].open.wrappingSubtract(1, ordering: .relaxed)
    }

    func messageReceived(loop: Int = 0) {
        loops[loop].received.wrappingAdd(1, ordering: .relaxed)
    }

    func messageSent(loop: Int = 0) {
        loops[loop].sent.wrappingAdd(1, ordering: .relaxed)
    }

    func errorSent(loop: Int = 0) {
        loops[loop].errorsSent.wrappingAdd(1, ordering: .relaxed)
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
               viewModels.map { ("{view_model=\"\($0)\"}", totals[$0] ?? 0) })
        metric("rxlive_messages_received_total", "counter", "Client messages received.", [("", messagesReceived)])
        metric("rxlive_messages_sent_total", "counter", "Server messages sent (ready, outputs, errors).", [("", messagesSent)])
        metric("rxlive_errors_sent_total", "counter", "Error messages sent for refused client messages.", [("", errorsSentTotal)])
        metric("rxlive_rx_resources", "gauge", "Live Rx resources (Resources.total).", [("", Resources.total)])
        metric("rxlive_loops", "gauge", "Event loops serving sessions, one thread each.", [("", loops.count)])
        metric("rxlive_loop_sessions_open", "gauge", "WebSocket sessions open now, by event loop.",
               sessionsOpenPerLoop.enumerated().map { ("{loop=\"\($0.offset)\"}", $0.element) })
        metric("rxlive_loop_sessions_total", "counter", "WebSocket sessions opened, by event loop.",
               sessionsTotalPerLoop.enumerated().map { ("{loop=\"\($0.offset)\"}", $0.element) })
        return text
    }
}

/// The session counters of one event loop.
private final class LoopSessionCounts: Sendable {
    let open = Atomic<Int>(0)
    let opened = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let sent = Atomic<Int>(0)
    let errorsSent = Atomic<Int>(0)
    /// A cache line of nothing, so the next loop's counters never share a line with these.
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}
