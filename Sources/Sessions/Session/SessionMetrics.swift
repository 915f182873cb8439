import RxSwift
import Synchronization

/// Counters of every session, shown by `GET /metrics` in Prometheus' text format.
///
/// Each event loop counts into its own `LoopMetrics`, so loops on different cores never
/// write the same memory per message; the totals are summed when read.
public final class SessionMetrics: Sendable {
    private let viewModels: Mutex<[String]>
    private let loops: [LoopMetrics]
    private let sessionsTotal: Mutex<[String: Int]>
    private let openByViewModel = Mutex<[String: Int]>([:])
    private let latencyTimers = Atomic<Int>(0)

    /// Metrics for sessions of `viewModels` (each gets a `sessions_total` line from the start)
    /// served by `loopCount` event loops.
    public init(viewModels: [String], loopCount: Int = 1) {
        self.viewModels = Mutex(viewModels)
        loops = (0..<max(1, loopCount)).map { LoopMetrics(index: $0) }
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

    /// The counters of the loop at `index` (0 for the first).
    func loop(_ index: Int) -> LoopMetrics { loops[index] }

    /// Every loop's counters, in order.
    public var loopMetrics: [LoopMetrics] { loops }

    /// Whether sessions time their messages now: only while a dashboard takes snapshots,
    /// so that without one a message costs no clock reading.
    var isTimingLatency: Bool { latencyTimers.load(ordering: .relaxed) > 0 }

    /// Sessions time their messages until the matching `stopTimingLatency()`.
    func startTimingLatency() { latencyTimers.wrappingAdd(1, ordering: .relaxed) }

    /// Ends one `startTimingLatency()`.
    func stopTimingLatency() { latencyTimers.wrappingSubtract(1, ordering: .relaxed) }

    /// Sessions open now.
    public var sessionsOpen: Int { sum(\.sessionsOpen) }
    /// Client messages received (accepted or refused).
    public var messagesReceived: Int { sum(\.messagesReceived) }
    /// Server messages sent (ready, outputs, errors).
    public var messagesSent: Int { sum(\.messagesSent) }
    /// Error messages sent.
    public var errorsSentTotal: Int { sum(\.errorsSent) }
    /// Sessions opened since start for `viewModel`.
    public func sessionsTotal(_ viewModel: String) -> Int { sessionsTotal.withLock { $0[viewModel] ?? 0 } }
    /// Sessions open now on each loop, in the loops' order.
    public var sessionsOpenPerLoop: [Int] { loops.map(\.sessionsOpen) }
    /// Sessions opened since start on each loop, in the loops' order.
    public var sessionsTotalPerLoop: [Int] { loops.map(\.sessionsOpened) }

    private func sum(_ counter: (LoopMetrics) -> Int) -> Int {
        loops.reduce(0) { $0 &+ counter($1) }
    }

    func sessionOpened(_ viewModel: String, loop: Int = 0) {
        loops[loop].sessionOpened()
        sessionsTotal.withLock { $0[viewModel, default: 0] += 1 }
        openByViewModel.withLock { $0[viewModel, default: 0] += 1 }
    }

    func sessionClosed(_ viewModel: String, loop: Int = 0) {
        loops[loop].sessionClosed()
        openByViewModel.withLock { $0[viewModel, default: 0] -= 1 }
    }

    func messageReceived(loop: Int = 0) { loops[loop].messageReceived() }

    func messageSent(loop: Int = 0) { loops[loop].messageSent() }

    func errorSent(loop: Int = 0) { loops[loop].errorSent() }

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
        metric("rxlive_loops", "gauge", "Event loops serving sessions, one thread each.", [("", loops.count)])
        metric("rxlive_loop_sessions_open", "gauge", "WebSocket sessions open now, by event loop.",
               sessionsOpenPerLoop.enumerated().map { ("{loop=\"\($0.offset)\"}", $0.element) })
        metric("rxlive_loop_sessions_total", "counter", "WebSocket sessions opened, by event loop.",
               sessionsTotalPerLoop.enumerated().map { ("{loop=\"\($0.offset)\"}", $0.element) })
        return text
    }
}
