/// A database that holds accounts and failed-login counters: SQLite in a local file or a
/// PostgreSQL server shared by several instances.
public protocol CredentialDatabase: Sendable {
    /// Opens one connection. Throws `CredentialStoreError.unavailable` when the database
    /// cannot be reached.
    func connect() throws -> any CredentialConnection
    /// Where the database is, for logs (never a password).
    var displayName: String { get }
    /// What waits for word of a revocation (`RevocationWatcher`); by default a sleep.
    func makeRevocationWaiter() -> any RevocationWaiter
}

/// One connection to a `CredentialDatabase`, used by one thread at a time. Blocking.
public protocol CredentialConnection: AnyObject {
    /// True once the connection failed in a way that needs a new one (server restarted).
    var isBroken: Bool { get }
    /// True when the connection no longer reaches the database it names (a file deleted
    /// or replaced since it was opened): it is dropped rather than used.
    var isStale: Bool { get }
    /// Lets go of a stale connection's hold on the path before a new one opens there.
    func retire()
    /// Whether this connection has checked the schema (the store sets it after `migrate`).
    var isMigrated: Bool { get set }
    /// Creates the schema, or migrates it to the current version.
    func migrate() throws
    /// The stored hash of `username`, `nil` when there is no such account.
    func passwordHash(of username: String) throws -> String?
    /// Adds an account; `false` when the name is taken.
    func insertAccount(_ username: String, passwordHash: String, now: Double) throws -> Bool
    /// Replaces the hash of an existing account (after a rehash or a password change).
    func updatePasswordHash(_ passwordHash: String, of username: String, now: Double) throws
    /// Removes an account; `false` when there was none.
    func deleteAccount(_ username: String) throws -> Bool
    /// Every account name, sorted.
    func accountNames() throws -> [String]
    /// Runs `body` on the counters of `keys` inside one transaction that keeps other
    /// connections (and other instances) from changing them meanwhile, then stores what
    /// `body` left in `counters` (a key removed from it is deleted).
    func updateFailureCounters<Result>(
        _ keys: [ThrottleKey], _ body: (_ counters: inout [ThrottleKey: FailureCounter]) -> Result
    ) throws -> Result
    /// Deletes the failure counters whose last failure is before `before`, and the known
    /// addresses last seen before `knownBefore`.
    func pruneFailureCounters(before: Double, knownBefore: Double) throws

    // Signing in (`CredentialStore+SignIn.swift`): tokens and codes are kept by hash only.
    /// Stores a hand-over code.
    func insertSignInCode(hash: String, username: String, expiresAt: Double) throws
    /// Deletes the code and returns its user when it had not expired at `now`; nil when
    /// there is no such code (never made, or used already).
    func takeSignInCode(hash: String, now: Double) throws -> String?
    /// Stores a signed-in session under its token's hash.
    func insertSignedInSession(_ session: SignedInSession, tokenHash: String) throws
    /// The session of a token, expired or not; nil when there is none.
    func signedInSession(tokenHash: String) throws -> SignedInSession?
    /// Records a use of the session.
    func touchSignedInSession(id: String, at time: Double) throws
    /// Deletes the sessions `revocation` names and logs it for every instance (told at once
    /// where the database can: PostgreSQL's NOTIFY); the ids of the sessions deleted.
    func revoke(_ revocation: Revocation, at time: Double) throws -> [String]
    /// Every session of `username`, oldest first.
    func signedInSessions(of username: String) throws -> [SignedInSession]
    /// The revocations logged after `sequence`, in order, each with its sequence number.
    func revocations(after sequence: Int64) throws -> [(sequence: Int64, revocation: Revocation)]
    /// The newest revocation's sequence number (0 when none).
    func latestRevocation() throws -> Int64
    /// Deletes sessions expired at `now`, codes expired at `now`, and revocations logged before `logBefore`.
    func pruneSignIn(now: Double, logBefore: Double) throws
}

/// What failed logins are counted by.
public struct ThrottleKey: Hashable, Sendable, Comparable {
    /// Counted per account and client address, per account, per client address; or an
    /// address known to an account (its `lastFailure` is the last successful login).
    public enum Kind: String, Sendable {
        case accountAndAddress = "pair"
        case username = "user"
        case address = "addr"
        case knownAddress = "ok"
    }

    /// What is counted.
    public let kind: Kind
    /// The username, the address, or both (`address` U+001F `username`).
    public let value: String

    /// A key of `kind` for `value`.
    public init(_ kind: Kind, _ value: String) {
        self.kind = kind
        self.value = value
    }

    /// Keys are locked in this order, so two transactions never wait on each other in a cycle.
    public static func < (lhs: ThrottleKey, rhs: ThrottleKey) -> Bool {
        (lhs.kind.rawValue, lhs.value) < (rhs.kind.rawValue, rhs.value)
    }
}

/// The failed attempts of one key: how many, and when the last one began (Unix seconds).
public struct FailureCounter: Equatable, Sendable {
    /// Failed attempts still counted.
    public var failures: Int
    /// When the last one began, in Unix seconds.
    public var lastFailure: Double

    /// A counter.
    public init(failures: Int, lastFailure: Double) {
        self.failures = failures
        self.lastFailure = lastFailure
    }
}

/// The database could not answer: not reachable, locked too long, or broken.
public struct CredentialStoreError: Error, CustomStringConvertible {
    /// What went wrong, in one line.
    public let description: String

    /// An error with a one-line description.
    public init(_ description: String) {
        self.description = description
    }
}
