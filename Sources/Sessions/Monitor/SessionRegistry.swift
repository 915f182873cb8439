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
    /// The open sessions in a list of references, 8 bytes a session (a dictionary by id took
    /// 24 a bucket, 49 a session at 2,000 sessions): each session keeps its index in the list
    /// (`Session.registrySlot`, guarded by `state`'s lock), and removing one moves the last
    /// into its place. Finding one by id (a dashboard's watch) scans the list.
    private struct State {
        var sessions: [Session] = []
    }

    private let state = Mutex(State())
    /// The sessions' recordings a dashboard can export, and its Record control's state.
    let recordings = DashboardRecordings()
    /// Marbles a viewer gets at most: a person reads a few a second, and a busy session
    /// makes thousands, whose messages would load the watched session's loop.
    let marbleLimit: RateLimit
    /// Monotonic nanoseconds, for the marble limit.
    private let clock: @Sendable () -> UInt64

    /// An empty registry whose viewers get at most `marbleLimit` marbles.
    init(marbleLimit: RateLimit = RateLimit(perSecond: 200, burst: 400),
                clock: @escaping @Sendable () -> UInt64 = { MonotonicClock.nanoseconds() }) {
        self.marbleLimit = marbleLimit
        self.clock = clock
    }

    /// Sessions open now.
    var count: Int { state.withLock { $0.sessions.count } }

    func add(_ session: Session) {
        state.withLock { state in
            session.registrySlot = UInt32(state.sessions.count)
            state.sessions.append(session)
        }
    }

    /// The open sessions `matching` picks (under the lock: keep it short).
    func sessions(where matching: (Session) -> Bool) -> [Session] {
        state.withLock { $0.sessions.filter(matching) }
    }

    /// Removes `session` if it is listed (a second call does nothing).
    func remove(_ session: Session) {
        state.withLock { state in
            let index = Int(session.registrySlot)
            guard index < state.sessions.count, state.sessions[index] === session else { return }
            let last = state.sessions.removeLast()
            if index < state.sessions.count {
                state.sessions[index] = last
                last.registrySlot = UInt32(index)
            }
            // Gives memory back after a peak, as the dictionaries of connections do.
            if state.sessions.capacity > 256, state.sessions.count < state.sessions.capacity / 8 {
                var smaller: [Session] = []
                smaller.reserveCapacity(state.sessions.count * 2)
                smaller.append(contentsOf: state.sessions)
                state.sessions = smaller
            }
        }
    }

    /// The `limit` most recently opened live sessions, newest first (by opening time, then
    /// by place in the list, where a later session comes later unless a removal moved it).
    /// One pass over the list that keeps the `limit` newest so far (linear in the sessions: a
    /// dashboard asks every second, under the lock every loop's opens and closes take).
    func newest(_ limit: Int, now: UInt64) -> [ServerStats.LiveSession] {
        guard limit > 0 else { return [] }
        typealias Kept = (session: Session, openedAt: UInt64, place: Int)
        // A session's id, view model and opening time never change, so they are read after.
        let kept = state.withLock { state -> [Kept] in
            var kept: [Kept] = []   // newest first
            kept.reserveCapacity(limit + 1)
            // From the end, where the list's newest mostly are: most sessions then fail the
            // first comparison.
            for place in state.sessions.indices.reversed() {
                let session = state.sessions[place]
                let openedAt = session.openedAt
                if kept.count == limit, let oldest = kept.last, (openedAt, place) < (oldest.openedAt, oldest.place) {
                    continue
                }
                let index = kept.firstIndex { (openedAt, place) > ($0.openedAt, $0.place) } ?? kept.count
                kept.insert((session, openedAt, place), at: index)
                if kept.count > limit { kept.removeLast() }
            }
            return kept
        }
        return kept.map { entry in
            ServerStats.LiveSession(
                id: String(entry.session.idBits, radix: 16), viewModel: entry.session.viewModelName,
                ageSeconds: Int((now &- entry.openedAt) / 1_000_000_000))
        }
    }

    /// The watch of the session whose id is `id` (hex, as in `ready`): its lanes, then a
    /// marble for each event on them until it closes; `notFound` for an unknown id.
    func watch(_ id: String) -> Observable<SessionWatchEvent> {
        Observable.deferred { [self] in
            guard let bits = UInt64(id, radix: 16),
                  let session = state.withLock({ $0.sessions.first { $0.idBits == bits } }) else {
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
    MonotonicClock.nanoseconds() / 1000
}
