import Accounts
import Sessions
import Synchronization

/// Valid tokens seen lately, by a keyed hash of each (`SignInCacheKey`): an upgrade with one
/// costs no database round trip.
/// Revocations (of this instance and, through the log, of every other) remove entries.
final class SignInCache: Sendable {
    struct Entry: Sendable {
        let user: SignedInUser
        let lastUsedAt: Double
        let expiresAt: Double
    }

    /// Most tokens kept; past it the cache starts again (each lookup refills it).
    private static let maxEntries = 100_000
    private let entries = Mutex<[SignInCacheKey: Entry]>([:])

    subscript(key: SignInCacheKey) -> Entry? {
        get { entries.withLock { $0[key] } }
        set {
            entries.withLock { table in
                if newValue != nil, table.count >= Self.maxEntries { table.removeAll(keepingCapacity: true) }
                table[key] = newValue
            }
        }
    }

    /// Forgets the tokens `revocation` ends.
    func remove(_ revocation: Revocation) {
        entries.withLock { table in
            switch revocation {
            case .session(let id): table = table.filter { $0.value.user.sessionID != id }
            case .user(let name): table = table.filter { $0.value.user.name != name }
            }
        }
    }
}
