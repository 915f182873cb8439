import Dispatch
import EventLoop
import RxSwift
import Synchronization

/// The live sessions by id, so the dashboard can list the newest and watch one.
///
/// It holds a session only while it is open: a session adds itself when it opens and
/// removes itself when it closes, so the reference can be strong (a weak one would give
/// every session a side table). Ids are the sessions' 64 random bits, so an id cannot be
/// guessed; only a dashboard viewer ever sees them listed.
final class SessionRegistry: Sendable {
    /// 16 bytes a slot beside the 8 of its key (`SessionsLayoutTests`); the rest is the
    /// session's own.
    struct Entry {
        let session: Session
        /// Order of opening, for the newest first.
        let serial: UInt64
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextSerial: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Marbles a viewer gets at most: a person reads a few a second, and a busy session
    /// makes thousands, whose messages would load the watched session's loop.
    let marbleLimit: RateLimit
    /// Monotonic nanoseconds, for the marble limit.
    private let clock: @Sendable () -> UInt64

    /// An empty registry whose viewers get at most `marbleLimit` marbles.
    init(marbleLimit: RateLimit = RateLimit(perSecond: 200, burst: 400),
                clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.marbleLimit = marbleLimit
        self.clock = clock
    }

    /// Sessions open now.
    var count: Int { state.withLock { $0.entries.count } }

    func add(_ session: Session) {
        state.withLock { state in
            state.nextSerial += 1
            state.entries[session.idBits] = Entry(session: session, serial: state.nextSerial)
        }
    }

    func remove(id: UInt64) {
        state.withLock { $0.entries.removeValueAndShrink(forKey: id) }
    }

    /// The `limit` most recently opened live sessions, newest first.
    func newest(_ limit: Int, now: UInt64) -> [ServerStats.LiveSession] {
        // A session's id, view model and opening time never change, so they are read here.
        let entries = state.withLock { state in
            state.entries.map { (id: $0.key, viewModel: $0.value.session.viewModelName,
                                 openedAt: $0.value.session.openedAt, serial: $0.value.serial) }
        }
        return entries.sorted { $0.serial > $1.serial }.prefix(limit).map { entry in
            ServerStats.LiveSession(
                id: String(entry.id, radix: 16), viewModel: entry.viewModel,
                ageSeconds: Int((now &- entry.openedAt) / 1_000_000_000))
        }
    }

    /// The watch of the session whose id is `id` (hex, as in `ready`): its lanes, then a
    /// marble for each event on them until it closes; `notFound` for an unknown id.
    func watch(_ id: String) -> Observable<SessionWatchEvent> {
        Observable.deferred { [self] in
            guard let bits = UInt64(id, radix: 16),
                  let session = state.withLock({ $0.entries[bits]?.session }) else {
                return Observable.just(.notFound(session: id))
            }
            let watching = SessionWatchEvent.watching(session: id, viewModel: session.viewModelName, lanes: session.lanes)
            let budget = MarbleBudget(limit: marbleLimit, clock: clock)
            return Observable.just(watching)
                .concat(session.trace.compactMap { budget.admit($0) })
                .concat(Observable.just(.ended(session: id)))
        }
    }
}

/// One viewer's marble rate: marbles beyond the limit are left out, and the next one let
/// through says how many were. Used by one watch, whose events come one at a time.
private final class MarbleBudget {
    private let limit: RateLimit
    private var bucket: TokenBucket
    private var skipped = 0
    private let clock: @Sendable () -> UInt64

    init(limit: RateLimit, clock: @escaping @Sendable () -> UInt64) {
        self.limit = limit
        self.clock = clock
        bucket = TokenBucket(limit, now: clock())
    }

    func admit(_ marble: Marble) -> SessionWatchEvent? {
        // Completion always shows: it is the last event of its lane.
        guard marble.kind == .completed || bucket.take(now: clock(), limit: limit) else {
            skipped += 1
            return nil
        }
        var marble = marble
        marble.skippedBefore = skipped
        skipped = 0
        return .marble(marble)
    }
}

/// The monotonic clock of marbles, in microseconds.
func marbleClock() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds / 1000
}
