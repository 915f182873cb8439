import Dispatch
import RxSwift

/// What the dashboard view model is given: the server's statistics once a second, and
/// the watching of live sessions.
final class SessionMonitor {
    /// The counters every session counts into.
    let metrics: SessionMetrics
    /// The live sessions.
    let registry: SessionRegistry
    /// One snapshot per `interval`, the first at once; one sampling timer however many
    /// dashboards watch, and none (and no message timing) while no dashboard is open.
    let stats: Observable<ServerStats>

    /// A monitor whose snapshots come every `interval` on `scheduler` (the event loop's in `rxlive`).
    init(metrics: SessionMetrics = SessionMetrics(viewModels: []), registry: SessionRegistry = SessionRegistry(),
                interval: RxTimeInterval = .seconds(1), scheduler: any SchedulerType = MainScheduler.instance) {
        self.metrics = metrics
        self.registry = registry
        let sampler = StatsSampler(metrics: metrics, registry: registry)
        // Sessions time their messages only while the snapshots run.
        stats = Observable<Int>.timer(.seconds(0), period: interval, scheduler: scheduler)
            .map { _ in sampler.sample() }
            .do(onSubscribe: { metrics.startTimingLatency() }, onDispose: { metrics.stopTimingLatency() })
            .share(replay: 1, scope: .whileConnected)
    }
}
