import Dispatch
import Logging

/// What every session of one endpoint (`/ws/<name>`) shares, built once per route, so
/// a session holds one reference instead of copies: the view model's wire description,
/// the settings, the metrics, the logger and the clock of the rate limits. With several
/// event loops each loop has its own endpoints, so `loop` says whose sessions these are.
final class SessionEndpoint {
    let wire: WireViewModel
    let configuration: SessionConfiguration
    let metrics: SessionMetrics
    /// The index of the event loop these sessions live on (for per-loop metrics).
    let loop: Int
    let logger: Logger
    /// Monotonic nanoseconds, for rate limits.
    let clock: @Sendable () -> UInt64
    /// The `ready` message but for the session id.
    let ready: ReadyMessageTemplate

    init(
        wire: WireViewModel, configuration: SessionConfiguration, metrics: SessionMetrics, logger: Logger,
        loop: Int = 0, clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    ) {
        self.wire = wire
        self.configuration = configuration
        self.metrics = metrics
        self.loop = loop
        self.logger = logger
        self.clock = clock
        ready = ReadyMessageTemplate(viewModel: wire.name, inputs: wire.inputs.inputs, outputs: wire.outputNames)
    }
}
