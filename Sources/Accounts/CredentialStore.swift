import Foundation
import Synchronization

/// The answer to one login attempt.
public enum LoginVerdict: Equatable, Sendable {
    /// The password matches the account.
    case accepted
    /// Unknown user or wrong password (the two are not told apart, and cost the same time).
    case rejected
    /// Too many recent failures for this username or client address: try again after this many seconds.
    case throttled(retryAfter: Double)
    /// The database could not answer.
    case unavailable(String)
}

/// Accounts and their passwords, checked against a `CredentialDatabase` with a
/// `PasswordHasher`, failed attempts counted in the same database (so every instance
/// sharing it sees them).
///
/// Every method blocks (database round trips, tens of milliseconds of hashing): call them
/// from a `WorkerPool` or a command-line tool, never from an event loop.
public final class CredentialStore: Sendable {
    /// Hashes new passwords and checks stored ones.
    public let hasher: PasswordHasher
    /// How failures per username slow the next attempt.
    public let usernamePolicy: LoginThrottlePolicy
    /// How failures per client address slow the next attempt.
    public let addressPolicy: LoginThrottlePolicy
    private let pool: ConnectionPool
    /// Whether the schema is known to be current: a server that was down at start is
    /// migrated on first use.
    private let schemaReady = Mutex(false)
    /// Unix time in seconds: counters are compared across machines, so wall time.
    private let clock: @Sendable () -> Double

    /// A store over `database`; keeps up to `maxIdleConnections` connections open.
    public init(
        database: any CredentialDatabase, hasher: PasswordHasher,
        usernamePolicy: LoginThrottlePolicy = .perUsername, addressPolicy: LoginThrottlePolicy = .perAddress,
        maxIdleConnections: Int = 4, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.hasher = hasher
        self.usernamePolicy = usernamePolicy
        self.addressPolicy = addressPolicy
        pool = ConnectionPool(database: database, maxIdle: maxIdleConnections)
        self.clock = clock
    }

    /// Where the accounts are, for logs.
    public var displayName: String { pool.database.displayName }

    /// Creates or migrates the schema.
    public func migrate() throws {
        try pool.withConnection { try migrateIfNeeded($0) }
    }

    private func migrateIfNeeded(_ connection: any CredentialConnection) throws {
        guard !schemaReady.withLock({ $0 }) else { return }
        try connection.migrate()
        schemaReady.withLock { $0 = true }
    }

    /// Runs `body` on a connection whose schema is current.
    private func withConnection<Result>(_ body: (any CredentialConnection) throws -> Result) throws -> Result {
        try pool.withConnection { connection in
            try migrateIfNeeded(connection)
            return try body(connection)
        }
    }

    /// Adds an account with `password` hashed; `false` when the name is taken.
    public func addAccount(_ username: String, password: String) throws -> Bool {
        let hash = try hasher.hash(password)
        return try withConnection { try $0.insertAccount(username, passwordHash: hash, now: clock()) }
    }

    /// Removes an account; `false` when there was none.
    public func removeAccount(_ username: String) throws -> Bool {
        try withConnection { try $0.deleteAccount(username) }
    }

    /// Every account name, sorted.
    public func accountNames() throws -> [String] {
        try withConnection { try $0.accountNames() }
    }

    /// The stored PHC string of `username` (for tests and rehash checks).
    public func passwordHash(of username: String) throws -> String? {
        try withConnection { try $0.passwordHash(of: username) }
    }

    /// Checks one attempt.
    ///
    /// Both counters (username and client address) are checked first. The username's is
    /// charged in that same transaction, before the hash runs, so parallel guesses at one
    /// account (on any instance) cannot slip past its limit; the address's is charged only
    /// once the password proved wrong, so many people behind one address may log in at
    /// once. A success clears both. An unknown user is verified against a dummy hash with
    /// the same parameters, so it takes as long as a wrong password. A failure's wait runs
    /// from its answer. A hash with older parameters is replaced on success.
    public func authenticate(username: String, password: String, clientAddress: String) -> LoginVerdict {
        let user = ThrottleKey(.username, username), address = ThrottleKey(.address, clientAddress)
        let keys = [user, address].sorted()
        do {
            return try withConnection { connection in
                let wait = try connection.updateFailureCounters(keys) { counters in
                    chargeAttempt(checking: keys, charging: [user], &counters, now: clock())
                }
                if wait > 0 { return .throttled(retryAfter: wait) }

                let stored = try connection.passwordHash(of: username)
                guard let stored, hasher.verify(password, against: stored) else {
                    if stored == nil { _ = hasher.verifyUnknownAccount(password) }
                    try recordFailure(user: user, address: address, on: connection)
                    return .rejected
                }
                try connection.clearFailureCounters(keys)
                if hasher.needsRehash(stored) {
                    try connection.updatePasswordHash(try hasher.hash(password), of: username, now: clock())
                }
                return .accepted
            }
        } catch {
            return .unavailable("\(error)")
        }
    }

    /// A wrong password: the address counts one more failure, and the username's failure
    /// (charged before the hash) is dated now, so the wait runs from the answer, not from
    /// the start of a hash that may have queued behind others.
    private func recordFailure(user: ThrottleKey, address: ThrottleKey, on connection: any CredentialConnection) throws {
        _ = try connection.updateFailureCounters([user, address].sorted()) { counters in
            let now = clock()
            _ = chargeAttempt(checking: [], charging: [address], &counters, now: now)
            counters[user]?.lastFailure = now
        }
    }

    /// The longest wait of the `checking` counters; when it is 0, each `charging` counter
    /// counts one more failure at `now`.
    private func chargeAttempt(
        checking: [ThrottleKey], charging: [ThrottleKey], _ counters: inout [ThrottleKey: FailureCounter], now: Double
    ) -> Double {
        var wait = 0.0
        for key in checking {
            guard let counter = counters[key] else { continue }
            wait = max(wait, policy(for: key).wait(failures: counter.failures, lastFailure: counter.lastFailure, now: now))
        }
        guard wait == 0 else { return wait }
        for key in charging {
            let counter = counters[key] ?? FailureCounter(failures: 0, lastFailure: now)
            let active = policy(for: key).activeFailures(counter.failures, lastFailure: counter.lastFailure, now: now)
            counters[key] = FailureCounter(failures: active + 1, lastFailure: now)
        }
        return 0
    }

    private func policy(for key: ThrottleKey) -> LoginThrottlePolicy {
        key.kind == .username ? usernamePolicy : addressPolicy
    }
}
