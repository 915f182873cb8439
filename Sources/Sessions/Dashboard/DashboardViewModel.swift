import RxSwift

/// The dashboard: the server's statistics as they come, the marbles of the one live
/// session the viewer picked (none while the picked id is empty), the Record control, and
/// a recorded session's test or recording to download.
///
/// It knows nothing of servers: the statistics, the watching of a session and the
/// recordings are injected as streams and functions.
struct DashboardViewModel {
    /// The viewer's choice.
    struct Input {
        /// The id of the session to watch; empty for none.
        let watchSession: Observable<String>
        /// The view model whose new sessions to record; empty to stop.
        let record: Observable<String>
        /// A session id whose recording to export as an XCTest case.
        let exportTest: Observable<String>
        /// A session id whose recording to download.
        let downloadRecording: Observable<String>

        /// Creates the inputs.
        init(watchSession: Observable<String>, record: Observable<String> = .never(),
             exportTest: Observable<String> = .never(), downloadRecording: Observable<String> = .never()) {
            self.watchSession = watchSession
            self.record = record
            self.exportTest = exportTest
            self.downloadRecording = downloadRecording
        }
    }

    /// What the dashboard shows.
    struct Output {
        /// One snapshot a second.
        let stats: Observable<ServerStats>
        /// The watched session: its lanes, then its marbles; a new id switches to that session.
        let watch: Observable<SessionWatchEvent>
        /// The Record control's state: at once, then after each request.
        let recording: Observable<RecordingControl>
        /// Each requested file, or why there is none.
        let download: Observable<DashboardDownload>
    }

    private let stats: Observable<ServerStats>
    private let watchSession: (String) -> Observable<SessionWatchEvent>
    private let record: (String) -> RecordingControl
    private let download: (String, DashboardDownload.Kind) -> Observable<DashboardDownload>

    /// A dashboard over `stats`, watching sessions with `watchSession` (id in, watch events out),
    /// recording with `record` (a view model's name in, the control's state out; called with
    /// nil for the state now) and making files with `download`.
    init(stats: Observable<ServerStats>,
         record: @escaping (String?) -> RecordingControl = { _ in RecordingControl() },
         download: @escaping (String, DashboardDownload.Kind) -> Observable<DashboardDownload> = { id, kind in
             .just(.failed(session: id, kind: kind, message: "nothing is recorded here"))
         },
         watchSession: @escaping (String) -> Observable<SessionWatchEvent>) {
        self.stats = stats
        self.watchSession = watchSession
        self.record = { record($0) }
        self.now = { record(nil) }
        self.download = download
    }

    private let now: () -> RecordingControl

    /// Stats pass through; each new session id replaces the previous watch.
    func transform(input: Input) -> Output {
        let watchSession = self.watchSession
        let watch = input.watchSession
            .map { $0.trimmingSpaces() }
            .distinctUntilChanged()
            .flatMapLatest { id -> Observable<SessionWatchEvent> in
                id.isEmpty ? Observable.just(.stopped) : watchSession(id)
            }
        let record = self.record, now = self.now, download = self.download
        let recording = Observable.deferred { .just(now()) }
            .concat(input.record.map { record($0.trimmingSpaces()) })
        // One file at a time per viewer: a new request waits for the one before (concatMap).
        let files = Observable.merge(input.exportTest.map { ($0.trimmingSpaces(), DashboardDownload.Kind.test) },
                                     input.downloadRecording.map { ($0.trimmingSpaces(), DashboardDownload.Kind.recording) })
            .concatMap { id, kind in download(id, kind) }
        return Output(stats: stats, watch: watch, recording: recording, download: files)
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
