import EventLoop
import HTTPServer
import Logging

/// What every session of one endpoint (`/ws/<name>`) shares, built once per route, so
/// a session holds one reference instead of copies: the view model's wire description,
/// the settings, the metrics, the logger and the clock of the rate limits. With several
/// event loops each loop has its own endpoints, so `loop` says whose sessions these are.
final class SessionEndpoint {
    let wire: WireViewModel
    let configuration: SessionConfiguration
    let metrics: SessionMetrics
    /// The counters of the loop these sessions live on.
    let loopMetrics: LoopMetrics
    /// The counters of this view model's sessions, across loops.
    let sessionCounters: ViewModelSessionCounters
    /// Where the endpoint's sessions are listed while they are open.
    let registry: SessionRegistry
    /// The index of the event loop these sessions live on (for per-loop metrics).
    let loop: Int
    /// That event loop, where the sessions' output hops to from other threads (nil in unit
    /// tests, whose transports run the work themselves).
    let eventLoop: EventLoop?
    let logger: Logger
    /// Whether `logger` takes debug messages: a session's open and close ask this flag, not
    /// the logger (a copy of it, its handler asked through an existential, about 250
    /// instructions each). A `Logger` value keeps the level it was made with.
    let logsDebug: Bool
    /// Monotonic nanoseconds, for rate limits.
    let clock: @Sendable () -> UInt64
    /// The `ready` message but for the session id.
    let ready: ReadyMessageTemplate
    /// The sessions' random ids.
    let sessionIDs = SessionIDSource()

    init(
        wire: WireViewModel, configuration: SessionConfiguration, metrics: SessionMetrics,
        registry: SessionRegistry = SessionRegistry(), logger: Logger, loop: Int = 0, eventLoop: EventLoop? = nil,
        clock: @escaping @Sendable () -> UInt64 = { MonotonicClock.nanoseconds() }
    ) {
        self.wire = wire
        self.configuration = configuration
        self.metrics = metrics
        loopMetrics = metrics.loop(loop)
        sessionCounters = metrics.counters(of: wire.name)
        self.registry = registry
        self.loop = loop
        self.eventLoop = eventLoop
        self.logger = logger
        logsDebug = logger.logLevel <= .debug
        self.clock = clock
        ready = ReadyMessageTemplate(viewModel: wire.name, inputs: wire.inputs.inputs, outputs: wire.outputNames)
        // A sign-out finds this endpoint's signed-in sessions in its registry.
        configuration.signedInSessions.attach(registry)
    }
}

extension SessionEndpoint {
    /// Whether a client that upgraded with `query` may open a session here: always for
    /// `.everyone`; for `.adminToken`, when the query's `token` is the admin token.
    func admits(query: String?) -> Bool {
        guard wire.access == .adminToken else { return true }
        guard let expected = configuration.adminToken, let query else { return false }
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
            return constantTimeEqual(Array(pair.utf8.dropFirst(6)), Array(expected.utf8))
        }
        return false
    }
}

extension SessionEndpoint {
    /// True when `admit` would admit every upgrade anonymously: no identifier to ask, and a
    /// view model that needs no user.
    var admitsEveryUpgrade: Bool { configuration.identify == nil && wire.access != .signedIn }

    /// Decides an upgrade: who it is from (the configuration's identifier, when the request
    /// carries credentials) and whether this view model takes them.
    func admit(_ request: HTTPRequestContext, answer: HTTPAnswer<UpgradeAdmission>) {
        let needsUser = wire.access == .signedIn
        guard let identify = configuration.identify else {
            return answer(needsUser ? .refuse(.signInRequired(invalidToken: false)) : .admit(nil))
        }
        identify(request) { identification in
            switch identification {
            case .anonymous: answer(needsUser ? .refuse(.signInRequired(invalidToken: false)) : .admit(nil))
            case .signedIn(let user): answer(.admit(user))
            case .refused(let response): answer(.refuse(response))
            }
        }
    }
}

/// Compares without stopping at the first difference, so the time taken tells nothing
/// about how much of a guessed token was right.
private func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
}
