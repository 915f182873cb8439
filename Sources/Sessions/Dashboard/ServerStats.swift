/// One snapshot of what the server is doing, as the dashboard charts it: taken once a
/// second by the server and handed to `DashboardViewModel` as a stream.
struct ServerStats: Sendable, Equatable {
    /// Sessions open now of one view model.
    struct ViewModelSessions: Sendable, Equatable {
        var name: String
        var open: Int

        /// The open sessions of `name`.
        init(name: String, open: Int) {
            self.name = name
            self.open = open
        }
    }

    /// The load of one event loop over the last interval.
    struct LoopLoad: Sendable, Equatable {
        /// The loop's position (0 for the first loop).
        var index: Int
        /// Sessions open on the loop now.
        var sessionsOpen: Int
        /// Client messages received per second.
        var messagesInPerSecond: Int
        /// Server messages sent per second.
        var messagesOutPerSecond: Int
        /// Median time from a client message in to its outputs out, in microseconds (nil: no messages).
        var latencyP50Microseconds: Int?
        /// 99th percentile of the same, in microseconds (nil: no messages).
        var latencyP99Microseconds: Int?

        /// A loop's load.
        init(index: Int, sessionsOpen: Int, messagesInPerSecond: Int, messagesOutPerSecond: Int,
                    latencyP50Microseconds: Int?, latencyP99Microseconds: Int?) {
            self.index = index
            self.sessionsOpen = sessionsOpen
            self.messagesInPerSecond = messagesInPerSecond
            self.messagesOutPerSecond = messagesOutPerSecond
            self.latencyP50Microseconds = latencyP50Microseconds
            self.latencyP99Microseconds = latencyP99Microseconds
        }
    }

    /// A live session a viewer may pick to watch.
    struct LiveSession: Sendable, Equatable {
        /// The session's id (as in its `ready` message).
        var id: String
        /// Its view model.
        var viewModel: String
        /// Seconds since it opened.
        var ageSeconds: Int

        /// A live session.
        init(id: String, viewModel: String, ageSeconds: Int) {
            self.id = id
            self.viewModel = viewModel
            self.ageSeconds = ageSeconds
        }
    }

    /// Seconds since the server started.
    var uptimeSeconds: Double
    /// Sessions open per view model, in catalog order.
    var sessions: [ViewModelSessions]
    /// Client messages received per second, all loops.
    var messagesInPerSecond: Int
    /// Server messages sent per second, all loops.
    var messagesOutPerSecond: Int
    /// Median message-in to output-out time over all loops, in microseconds (nil: no messages).
    var latencyP50Microseconds: Int?
    /// 99th percentile of the same (nil: no messages).
    var latencyP99Microseconds: Int?
    /// Live Rx resources (`Resources.total`).
    var rxResources: Int
    /// Every event loop's load.
    var loops: [LoopLoad]
    /// The most recently opened live sessions, newest first.
    var recentSessions: [LiveSession]

    /// A snapshot.
    init(uptimeSeconds: Double, sessions: [ViewModelSessions], messagesInPerSecond: Int, messagesOutPerSecond: Int,
                latencyP50Microseconds: Int?, latencyP99Microseconds: Int?, rxResources: Int, loops: [LoopLoad],
                recentSessions: [LiveSession]) {
        self.uptimeSeconds = uptimeSeconds
        self.sessions = sessions
        self.messagesInPerSecond = messagesInPerSecond
        self.messagesOutPerSecond = messagesOutPerSecond
        self.latencyP50Microseconds = latencyP50Microseconds
        self.latencyP99Microseconds = latencyP99Microseconds
        self.rxResources = rxResources
        self.loops = loops
        self.recentSessions = recentSessions
    }
}
