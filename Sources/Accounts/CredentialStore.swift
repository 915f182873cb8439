import FoundationEssentials
import Glibc
import Synchronization

/// The answer to one login attempt.
public enum LoginVerdict: Equatable, Sendable {
    /// The password matches the account.
    case accepted
    /// Unknown user or wrong password (the two are not told apart, and cost the same time).
    case rejected
    /// The name or password can never be valid (`CredentialRules`): answered at once,
    /// without a hash and without counting a failure.
    case refused(CredentialValidationError)
    /// Too many recent failures for this account or client address: try again after this many seconds.
    case throttled(retryAfter: Double)
    /// The database could not answer.
    case unavailable(String)
    /// The hashing queue had no place: nothing was checked or counted; try again after this
    /// many seconds.
    case busy(retryAfter: Double)
}

/// Accounts and their passwords, checked against a `CredentialDatabase` with a
/// `PasswordHasher`, failed attempts counted in the same database (so every instance
/// sharing it sees them).
///
/// Names are checked and NFC-normalized by `CredentialRules` before they are stored or
/// looked up.
///
/// Every method blocks (database round trips, tens of milliseconds of hashing): call them
/// from a `WorkerPool` or a command-line tool, never from an event loop.
public final class CredentialStore: Sendable {
    /// Hashes new passwords and checks stored ones.
    public let hasher: PasswordHasher
    /// The throttle policies (see docs/SECURITY.md, "Login throttling").
    public let policies: Policies
    private let pool: ConnectionPool
    /// When counters older than their window were last deleted (Unix seconds).
    private let lastPrune = Mutex(-Double.infinity)
    /// Unix time in seconds: counters are compared across machines, so wall time.
    let clock: @Sendable () -> Double

    /// The three failure counts and how long an address that logged in stays known.
    public struct Policies: Sendable, Equatable {
        /// Failures of one account from one address: always applies.
        public var accountAndAddress: LoginThrottlePolicy
        /// Failures of one account from every address: applies only to an address that has
        /// failures of its own for the account and has not logged in to it before.
        public var account: LoginThrottlePolicy
        /// Failures from one address across accounts: applies unless the address logged in
        /// to this account before.
        public var address: LoginThrottlePolicy
        /// Seconds an address stays known for an account after a successful login.
        public var knownAddressFor: Double

        /// The defaults.
        public static let standard = Policies(
            accountAndAddress: .perAccountAndAddress, account: .perAccount, address: .perAddress,
            knownAddressFor: 30 * 24 * 3600)

        /// Policies with these parts.
        public init(accountAndAddress: LoginThrottlePolicy, account: LoginThrottlePolicy, address: LoginThrottlePolicy,
                    knownAddressFor: Double) {
            self.accountAndAddress = accountAndAddress
            self.account = account
            self.address = address
            self.knownAddressFor = knownAddressFor
        }

        /// The longest `forgetAfter`: failure counters older than this are deleted.
        var failureWindow: Double { max(accountAndAddress.forgetAfter, account.forgetAfter, address.forgetAfter) }
    }

    /// A store over `database`; keeps up to `maxIdleConnections` connections open.
    public init(
        database: any CredentialDatabase, hasher: PasswordHasher, policies: Policies = .standard,
        maxIdleConnections: Int = 4, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.hasher = hasher
        self.policies = policies
        pool = ConnectionPool(database: database, maxIdle: maxIdleConnections)
        self.clock = clock
    }

    /// The database, for what follows it beside the pool (`RevocationWatcher`).
    var databaseForSignIn: any CredentialDatabase { pool.database }

    /// Where the accounts are, for logs.
    public var displayName: String { pool.database.displayName }

    /// Creates or migrates the schema.
    public func migrate() throws {
        try withConnection { _ in }
    }

    /// Runs `body` on a connection whose schema is current: each connection checks it once,
    /// so a database file replaced under a running server is migrated when it is reopened.
    func withConnection<Result>(_ body: (any CredentialConnection) throws -> Result) throws -> Result {
        try pool.withConnection { connection in
            if !connection.isMigrated {
                try connection.migrate()
                connection.isMigrated = true
            }
            return try body(connection)
        }
    }

    /// Adds an account with `password` hashed; `false` when the name is taken. Throws
    /// `CredentialValidationError` for a name or password that `CredentialRules` refuses.
    public func addAccount(_ username: String, password: String) throws -> Bool {
        let name = try CredentialRules.normalizedUsername(username)
        try CredentialRules.validatePassword(password)
        let hash = try hasher.hash(password)
        return try withConnection { try $0.insertAccount(name, passwordHash: hash, now: clock()) }
    }

    /// Removes an account; `false` when there was none. A name that `CredentialRules`
    /// refuses (one stored before the rules) is removed as given.
    /// Every signed-in session of the account ends too, on every instance.
    public func removeAccount(_ username: String) throws -> Bool {
        let name = (try? CredentialRules.normalizedUsername(username)) ?? username
        return try withConnection { connection in
            guard try connection.deleteAccount(name) else { return false }
            _ = try connection.revoke(.user(name), at: clock())
            return true
        }
    }

    /// Sets a new password for an existing account and ends every signed-in session of it
    /// (on every instance); `false` when there is no such account.
    public func changePassword(of username: String, to password: String) throws -> Bool {
        let name = try CredentialRules.normalizedUsername(username)
        try CredentialRules.validatePassword(password)
        let hash = try hasher.hash(password)
        return try withConnection { connection in
            guard try connection.passwordHash(of: name) != nil else { return false }
            try connection.updatePasswordHash(hash, of: name, now: clock())
            _ = try connection.revoke(.user(name), at: clock())
            return true
        }
    }

    /// Every account name, sorted.
    public func accountNames() throws -> [String] {
        try withConnection { try $0.accountNames() }
    }

    /// The stored PHC string of `username` (for tests and rehash checks).
    public func passwordHash(of username: String) throws -> String? {
        let name = (try? CredentialRules.normalizedUsername(username)) ?? username
        return try withConnection { try $0.passwordHash(of: name) }
    }

    /// Checks one attempt.
    ///
    /// A name or password that can never be valid is refused first, with no database work.
    /// Then the counters are checked (see `Policies`). The account's counts (from this
    /// address and from all) are charged in that same transaction, before the hash runs,
    /// so parallel guesses (on any instance) cannot slip past a limit; the address's count
    /// is charged only once the password proved wrong, so many people behind one address
    /// may log in at once. A success clears the count of this account from this address,
    /// gives back the account-wide charge, and remembers the address as known for the
    /// account. An unknown user is verified against a dummy hash with the same parameters,
    /// so it takes as long as a wrong password. A failure's wait runs from its answer. A
    /// hash with older parameters is replaced on success.
    public func authenticate(username rawUsername: String, password: String, clientAddress: String) -> LoginVerdict {
        let username: String
        do {
            username = try CredentialRules.normalizedUsername(rawUsername)
            try CredentialRules.validatePassword(password)
        } catch {
            return .refused(error)
        }
        let keys = AttemptKeys(username: username, clientAddress: clientAddress)
        do {
            return try withConnection { connection in
                let wait = try connection.updateFailureCounters(keys.all) { counters in
                    checkAndCharge(keys, &counters, now: clock())
                }
                if wait > 0 { return .throttled(retryAfter: wait) }

                let stored = try connection.passwordHash(of: username)
                guard let stored, hasher.verify(password, against: stored) else {
                    if stored == nil { _ = hasher.verifyUnknownAccount(password) }
                    try recordFailure(keys, on: connection)
                    return .rejected
                }
                try recordSuccess(keys, on: connection)
                if hasher.needsRehash(stored) {
                    try connection.updatePasswordHash(try hasher.hash(password), of: username, now: clock())
                }
                return .accepted
            }
        } catch {
            return .unavailable("\(error)")
        }
    }

    /// The longest wait of the counters that apply; when it is 0, the account's counts
    /// (from this address and from all) are charged one failure at `now`.
    private func checkAndCharge(_ keys: AttemptKeys, _ counters: inout [ThrottleKey: FailureCounter], now: Double) -> Double {
        let known = counters[keys.known].map { now - $0.lastFailure < policies.knownAddressFor } ?? false
        let ownFailures = active(keys.pair, policies.accountAndAddress, counters, now: now)
        var wait = self.wait(keys.pair, policies.accountAndAddress, counters, now: now)
        if !known {
            wait = max(wait, self.wait(keys.address, policies.address, counters, now: now))
            if ownFailures > 0 { wait = max(wait, self.wait(keys.account, policies.account, counters, now: now)) }
        }
        guard wait == 0 else { return wait }
        charge(keys.pair, policies.accountAndAddress, &counters, now: now)
        charge(keys.account, policies.account, &counters, now: now)
        return 0
    }

    /// A wrong password: the address counts one more failure, and the account's failures
    /// (charged before the hash) are dated now, so the wait runs from the answer, not from
    /// the start of a hash that may have queued behind others. Counters past their window
    /// are deleted now and then.
    private func recordFailure(_ keys: AttemptKeys, on connection: any CredentialConnection) throws {
        _ = try connection.updateFailureCounters(keys.all) { counters in
            let now = clock()
            charge(keys.address, policies.address, &counters, now: now)
            counters[keys.pair]?.lastFailure = now
            counters[keys.account]?.lastFailure = now
        }
        let now = clock()
        let due = lastPrune.withLock { last in
            guard now - last >= 60 else { return false }
            last = now
            return true
        }
        if due {
            try connection.pruneFailureCounters(before: now - policies.failureWindow,
                                                knownBefore: now - policies.knownAddressFor)
        }
    }

    /// The right password: this address's count for the account is cleared, the
    /// account-wide charge of this attempt given back, and the address remembered as known.
    private func recordSuccess(_ keys: AttemptKeys, on connection: any CredentialConnection) throws {
        _ = try connection.updateFailureCounters(keys.all) { counters in
            counters[keys.pair] = nil
            if let account = counters[keys.account] {
                counters[keys.account] = account.failures > 1
                    ? FailureCounter(failures: account.failures - 1, lastFailure: account.lastFailure) : nil
            }
            counters[keys.known] = FailureCounter(failures: 0, lastFailure: clock())
        }
    }

    private func active(_ key: ThrottleKey, _ policy: LoginThrottlePolicy, _ counters: [ThrottleKey: FailureCounter], now: Double) -> Int {
        guard let counter = counters[key] else { return 0 }
        return policy.activeFailures(counter.failures, lastFailure: counter.lastFailure, now: now)
    }

    private func wait(_ key: ThrottleKey, _ policy: LoginThrottlePolicy, _ counters: [ThrottleKey: FailureCounter], now: Double) -> Double {
        guard let counter = counters[key] else { return 0 }
        return policy.wait(failures: counter.failures, lastFailure: counter.lastFailure, now: now)
    }

    private func charge(_ key: ThrottleKey, _ policy: LoginThrottlePolicy, _ counters: inout [ThrottleKey: FailureCounter], now: Double) {
        counters[key] = FailureCounter(failures: active(key, policy, counters, now: now) + 1, lastFailure: now)
    }
}

/// The four counters one attempt reads: the account from this address, the account from
/// anywhere, the address across accounts, and whether the address is known to the account.
private struct AttemptKeys {
    let pair: ThrottleKey
    let account: ThrottleKey
    let address: ThrottleKey
    let known: ThrottleKey

    init(username: String, clientAddress: String) {
        // U+001F cannot be in a username (CredentialRules refuses controls), so the pair is unambiguous.
        let pairValue = "\(clientAddress)\u{1F}\(username)"
        pair = ThrottleKey(.accountAndAddress, pairValue)
        account = ThrottleKey(.username, username)
        address = ThrottleKey(.address, clientAddress)
        known = ThrottleKey(.knownAddress, pairValue)
    }

    /// In lock order.
    var all: [ThrottleKey] { [pair, account, address, known].sorted() }
}
