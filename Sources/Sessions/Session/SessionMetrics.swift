import RxSwift
import Synchronization

/// Counters of every session, which `RxLive` shows on `GET /metrics`.
///
/// Each event loop counts into its own `LoopMetrics`, so loops on different cores never
/// write the same memory per message; the totals are summed when read.
public final class SessionMetrics: Sendable {
    private let viewModels: Mutex<[String]>
    private let loops: [LoopMetrics]
    /// Each view model's session counters, made when it is declared (or first counted).
    private let viewModelCounters: Mutex<[String: ViewModelSessionCounters]>
    private let latencyTimers = Atomic<Int>(0)

    /// Metrics for sessions of `viewModels` (each gets a `sessions_total` line from the start)
    /// served by `loopCount` event loops.
    init(viewModels: [String], loopCount: Int = 1) {
        self.viewModels = Mutex(viewModels)
        loops = (0..<max(1, loopCount)).map { LoopMetrics(index: $0) }
        viewModelCounters = Mutex(Dictionary(uniqueKeysWithValues: viewModels.map { ($0, ViewModelSessionCounters()) }))
    }

    /// The counters of `viewModel`'s sessions, made if it has none yet: an endpoint takes
    /// them once, so opening a session costs no lock and no lookup by name.
    func counters(of viewModel: String) -> ViewModelSessionCounters {
        viewModelCounters.withLock { table in
            if let counters = table[viewModel] { return counters }
            let counters = ViewModelSessionCounters()
            table[viewModel] = counters
            return counters
        }
    }

    /// Adds `viewModel` to those listed (with zero counts) if it is not there yet.
    func declare(viewModel: String) {
        viewModels.withLock { if !$0.contains(viewModel) { $0.append(viewModel) } }
        _ = counters(of: viewModel)
    }

    /// The view models, in the order they were declared.
    public var viewModelNames: [String] { viewModels.withLock { $0 } }

    /// Sessions of `viewModel` open now.
    func sessionsOpen(_ viewModel: String) -> Int {
        viewModelCounters.withLock { $0[viewModel] }?.open.load(ordering: .relaxed) ?? 0
    }

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
    public func sessionsTotal(_ viewModel: String) -> Int {
        viewModelCounters.withLock { $0[viewModel] }?.total.load(ordering: .relaxed) ?? 0
    }
    /// Sessions open now on each loop, in the loops' order.
    var sessionsOpenPerLoop: [Int] { loops.map(\.sessionsOpen) }
    /// Sessions opened since start on each loop, in the loops' order.
    var sessionsTotalPerLoop: [Int] { loops.map(\.sessionsOpened) }

    private func sum(_ counter: (LoopMetrics) -> Int) -> Int {
        loops.reduce(0) { $0 &+ counter($1) }
    }

    func sessionOpened(_ viewModel: String, loop: Int = 0) {
        sessionOpened(counters(of: viewModel), loop: loop)
    }

    func sessionClosed(_ viewModel: String, loop: Int = 0) {
        sessionClosed(counters(of: viewModel), loop: loop)
    }

    func sessionOpened(_ counters: ViewModelSessionCounters, loop: Int) {
        loops[loop].sessionOpened()
        counters.total.wrappingAdd(1, ordering: .relaxed)
        counters.open.wrappingAdd(1, ordering: .relaxed)
    }

    func sessionClosed(_ counters: ViewModelSessionCounters, loop: Int) {
        loops[loop].sessionClosed()
        counters.open.wrappingSubtract(1, ordering: .relaxed)
    }

    func messageReceived(loop: Int = 0) { loops[loop].messageReceived() }

    func messageSent(loop: Int = 0) { loops[loop].messageSent() }

    func errorSent(loop: Int = 0) { loops[loop].errorSent() }
}

/// One view model's session counts, shared by its endpoints on every loop: two relaxed
/// atomics, where a lock and a dictionary lookup by name cost about 1,500 instructions a session.
final class ViewModelSessionCounters: Sendable {
    /// Sessions opened since start.
    let total = Atomic<Int>(0)
    /// Sessions open now.
    let open = Atomic<Int>(0)
}
