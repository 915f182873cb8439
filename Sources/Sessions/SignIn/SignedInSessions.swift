import Synchronization

/// Finds the live sessions of a sign-in, so that a log out (here or on another instance)
/// reaches them: each is told `{"signedOut":…}` and closed with code 4001 on its own loop.
///
/// It keeps no list of its own: the sessions' registries (the dashboard's, which every open
/// session is in) are scanned for sessions whose user matches. A sign-out is rare and a scan
/// of a few thousand references is short, where a list of signed-in sessions would cost each
/// of them an entry, a lock and a hash at open and again at close.
public final class SignedInSessions: Sendable {
    private let registries = Mutex<[SessionRegistry]>([])

    /// An empty list.
    public init() {}

    /// Signs out every live session of the sign-in `sessionID`; how many there were.
    @discardableResult
    public func signOut(sessionID: String, reason: String) -> Int {
        signOut(sessions { $0.sessionID == sessionID }, reason: reason)
    }

    /// Signs out every live session of `user`; how many there were.
    @discardableResult
    public func signOut(user: String, reason: String) -> Int {
        signOut(sessions { $0.name == user }, reason: reason)
    }

    /// Signs out every live session whose sign-in has reached its lifetime at `now` (Unix
    /// seconds); how many there were. A live session keeps its sign-in in use, so the idle
    /// timeout does not end it, but the absolute lifetime does.
    @discardableResult
    public func signOutExpired(now: Double) -> Int {
        signOut(sessions { $0.expiresAt <= now }, reason: "expired")
    }

    /// Live signed-in sessions.
    public var count: Int { sessions { _ in true }.count }

    /// Looks in `registry` too (each endpoint's registry; the same one is kept once).
    func attach(_ registry: SessionRegistry) {
        registries.withLock { list in
            if !list.contains(where: { $0 === registry }) { list.append(registry) }
        }
    }

    private func sessions(_ matching: (SignedInUser) -> Bool) -> [Session] {
        registries.withLock { $0 }.flatMap { registry in
            registry.sessions { session in session.identity.map(matching) ?? false }
        }
    }

    private func signOut(_ sessions: [Session], reason: String) -> Int {
        for session in sessions {
            session.transport?.executeOnOwnerThread { session.signOut(reason: reason) }
        }
        return sessions.count
    }
}
