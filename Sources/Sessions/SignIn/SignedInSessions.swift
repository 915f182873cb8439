import Synchronization

/// The live sessions of signed-in users, so that a log out (here or on another instance)
/// reaches them: each is told `{"signedOut":…}` and closed with code 4001 on its own loop.
/// Only signed-in sessions are listed; an anonymous one costs nothing here.
public final class SignedInSessions: Sendable {
    private let live = Mutex<[String: [ObjectIdentifier: WeakSession]]>([:])

    /// An empty list.
    public init() {}

    /// Signs out every live session of the sign-in `sessionID`; how many there were.
    @discardableResult
    public func signOut(sessionID: String, reason: String) -> Int {
        let sessions = live.withLock { $0.removeValue(forKey: sessionID) }
        return signOut(sessions.map { Array($0.values) } ?? [], reason: reason)
    }

    /// Signs out every live session of `user`; how many there were.
    @discardableResult
    public func signOut(user: String, reason: String) -> Int {
        let sessions = live.withLock { table in
            var found: [WeakSession] = []
            for (id, entries) in table where entries.values.contains(where: { $0.userName == user }) {
                found += entries.values
                table[id] = nil
            }
            return found
        }
        return signOut(sessions, reason: reason)
    }

    /// Live signed-in sessions, for tests and the dashboard's count.
    public var count: Int { live.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    private func signOut(_ sessions: [WeakSession], reason: String) -> Int {
        var count = 0
        for entry in sessions {
            guard let session = entry.session, let transport = session.transport else { continue }
            count += 1
            transport.executeOnOwnerThread { session.signOut(reason: reason) }
        }
        return count
    }

    func add(_ session: Session, user: SignedInUser) {
        let entry = WeakSession(session: session, userName: user.name)
        live.withLock { $0[user.sessionID, default: [:]][ObjectIdentifier(session)] = entry }
    }

    func remove(_ session: Session, user: SignedInUser) {
        live.withLock { table in
            table[user.sessionID]?[ObjectIdentifier(session)] = nil
            if table[user.sessionID]?.isEmpty == true { table[user.sessionID] = nil }
        }
    }
}

/// A listed session, not kept alive by the list.
private struct WeakSession: @unchecked Sendable {  // `session` is only used through its owner thread (`executeOnOwnerThread`)
    weak var session: Session?
    let userName: String
}
