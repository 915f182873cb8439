import Synchronization

/// The counters of the sessions of one event loop, for the dashboard's per-loop load:
/// sessions open, messages in and out, and a histogram of message-in to output-out time.
/// Atomic and locked, so the sampler may read them from any thread.
public final class LoopMetrics: Sendable {
    /// The loop's position, 0 for the first.
    public let index: Int
    private let open = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    private let sent = Atomic<Int>(0)
    private let latency = Mutex(LatencyHistogram())

    init(index: Int) {
        self.index = index
    }

    /// Sessions open on this loop now.
    public var sessionsOpen: Int { open.load(ordering: .relaxed) }
    /// Client messages received on this loop since start.
    public var messagesReceived: Int { received.load(ordering: .relaxed) }
    /// Server messages sent on this loop since start.
    public var messagesSent: Int { sent.load(ordering: .relaxed) }

    func sessionOpened() { open.wrappingAdd(1, ordering: .relaxed) }
    func sessionClosed() { open.wrappingSubtract(1, ordering: .relaxed) }
    func messageReceived() { received.wrappingAdd(1, ordering: .relaxed) }
    func messageSent() { sent.wrappingAdd(1, ordering: .relaxed) }

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
