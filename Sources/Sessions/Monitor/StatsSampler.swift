import EventLoop
import RxSwift
import Synchronization

/// Turns the counters into `ServerStats` snapshots: rates are the change since the previous
/// snapshot divided by the time between them; latency percentiles are over the messages
/// since then.
final class StatsSampler: Sendable {
    private struct Previous {
        var time: UInt64
        var received: [Int: Int] = [:]
        var sent: [Int: Int] = [:]
    }

    /// How many of the newest sessions a snapshot lists.
    static let listedSessions = 20

    private let metrics: SessionMetrics
    private let registry: SessionRegistry
    private let startedAt: UInt64
    private let clock: @Sendable () -> UInt64
    private let previous: Mutex<Previous>

    init(metrics: SessionMetrics, registry: SessionRegistry,
         clock: @escaping @Sendable () -> UInt64 = { MonotonicClock.nanoseconds() }) {
        self.metrics = metrics
        self.registry = registry
        self.clock = clock
        startedAt = clock()
        previous = Mutex(Previous(time: startedAt))
    }

    /// The snapshot of now.
    func sample() -> ServerStats {
        let now = clock()
        let loops = metrics.loopMetrics
        var all = LatencyHistogram()
        let counted = loops.map { loop in
            let latency = loop.takeLatency()
            all.add(latency)
            return (loop: loop, received: loop.messagesReceived, sent: loop.messagesSent, latency: latency)
        }
        let rates = previous.withLock { previous -> [(in: Int, out: Int)] in
            let seconds = Double(max(1, now &- previous.time)) / 1e9
            let rates = counted.map { entry -> (in: Int, out: Int) in
                let index = entry.loop.index
                let rateIn = Double(entry.received - (previous.received[index] ?? 0)) / seconds
                let rateOut = Double(entry.sent - (previous.sent[index] ?? 0)) / seconds
                previous.received[index] = entry.received
                previous.sent[index] = entry.sent
                return (Int(rateIn.rounded()), Int(rateOut.rounded()))
            }
            previous.time = now
            return rates
        }
        let loopLoads = zip(counted, rates).map { entry, rate in
            ServerStats.LoopLoad(
                index: entry.loop.index, sessionsOpen: entry.loop.sessionsOpen,
                messagesInPerSecond: rate.in, messagesOutPerSecond: rate.out,
                latencyP50Microseconds: entry.latency.percentile(50).map(Self.microseconds),
                latencyP99Microseconds: entry.latency.percentile(99).map(Self.microseconds))
        }
        return ServerStats(
            uptimeSeconds: Double(now &- startedAt) / 1e9,
            sessions: metrics.viewModelNames.map { ServerStats.ViewModelSessions(name: $0, open: metrics.sessionsOpen($0)) },
            messagesInPerSecond: rates.reduce(0) { $0 + $1.in },
            messagesOutPerSecond: rates.reduce(0) { $0 + $1.out },
            latencyP50Microseconds: all.percentile(50).map(Self.microseconds),
            latencyP99Microseconds: all.percentile(99).map(Self.microseconds),
            rxResources: Int(Resources.total),
            loops: loopLoads,
            recentSessions: registry.newest(Self.listedSessions, now: now))
    }

    /// Nanoseconds to whole microseconds, at least 1 so a fast message never reads as "no time".
    private static func microseconds(_ nanoseconds: UInt64) -> Int {
        max(1, Int((nanoseconds + 500) / 1000))
    }
}
