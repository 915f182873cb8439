import RxSwift

/// The dashboard: the server's statistics as they come, and the marbles of the one live
/// session the viewer picked (none while the picked id is empty).
///
/// It knows nothing of servers: the statistics and the watching of a session are
/// injected as streams.
struct DashboardViewModel {
    /// The viewer's choice.
    struct Input {
        /// The id of the session to watch; empty for none.
        let watchSession: Observable<String>

        /// Creates the inputs.
        init(watchSession: Observable<String>) {
            self.watchSession = watchSession
        }
    }

    /// What the dashboard shows.
    struct Output {
        /// One snapshot a second.
        let stats: Observable<ServerStats>
        /// The watched session: its lanes, then its marbles; a new id switches to that session.
        let watch: Observable<SessionWatchEvent>

        /// Creates the outputs.
        init(stats: Observable<ServerStats>, watch: Observable<SessionWatchEvent>) {
            self.stats = stats
            self.watch = watch
        }
    }

    private let stats: Observable<ServerStats>
    private let watchSession: (String) -> Observable<SessionWatchEvent>

    /// A dashboard over `stats`, watching sessions with `watchSession` (id in, watch events out).
    init(stats: Observable<ServerStats>, watchSession: @escaping (String) -> Observable<SessionWatchEvent>) {
        self.stats = stats
        self.watchSession = watchSession
    }

    /// Stats pass through; each new session id replaces the previous watch.
    func transform(input: Input) -> Output {
        let watchSession = self.watchSession
        let watch = input.watchSession
            .map { $0.trimmingSpaces() }
            .distinctUntilChanged()
            .flatMapLatest { id -> Observable<SessionWatchEvent> in
                id.isEmpty ? Observable.just(.stopped) : watchSession(id)
            }
        return Output(stats: stats, watch: watch)
    }
}

extension String {
    /// The string without leading and trailing spaces (a pasted id often has some).
    fileprivate func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
