import Synchronization

/// The counters of the sessions of one event loop, summed for `/metrics` and shown per loop
/// by the dashboard: sessions open and opened, messages in and out, errors, and a histogram
/// of message-in to output-out time.
/// Atomic and locked, so the sampler may read them from any thread.
public final class LoopMetrics: Sendable {
    /// The loop's position, 0 for the first.
    public let index: Int
    private let open = Atomic<Int>(0)
    private let opened = Atomic<Int>(0)
    private let errors = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    private let sent = Atomic<Int>(0)
    private let latency = Mutex(LatencyHistogram())

    init(index: Int) {
        self.index = index
    }

    /// Sessions open on this loop now.
    public var sessionsOpen: Int { open.load(ordering: .relaxed) }
    /// Sessions opened on this loop since start.
    public var sessionsOpened: Int { opened.load(ordering: .relaxed) }
    /// Error messages sent on this loop since start.
    var errorsSent: Int { errors.load(ordering: .relaxed) }
    /// Client messages received on this loop since start.
    var messagesReceived: Int { received.load(ordering: .relaxed) }
    /// Server messages sent on this loop since start.
    var messagesSent: Int { sent.load(ordering: .relaxed) }

    func sessionOpened() {
        open.wrappingAdd(1, ordering: .relaxed)
        opened.wrappingAdd(1, ordering: .relaxed)
    }
    func sessionClosed() { open.wrappingSubtract(1, ordering: .relaxed) }
    func messageReceived() { received.wrappingAdd(1, ordering: .relaxed) }
    func messageSent() { sent.wrappingAdd(1, ordering: .relaxed) }
    func errorSent() { errors.wrappingAdd(1, ordering: .relaxed) }

    /// Counts the time one client message took from arrival to its outputs being queued.
    func recordLatency(nanoseconds: UInt64) {
        latency.withLock { $0.record(nanoseconds: nanoseconds) }
    }

    /// The latencies counted since the last call, and a fresh histogram from now on.
    func takeLatency() -> LatencyHistogram {
        latency.withLock { histogram in
            let taken = histogram
            histogram = LatencyHistogram()
            return taken
        }
    }
}
