/// How long a sign-in lasts (see docs/SECURITY.md, "Signed-in sessions").
public struct SignInPolicy: Sendable, Equatable {
    /// A token not used for this many seconds is no longer valid.
    public var idleTimeout: Double
    /// A token is never valid for longer than this many seconds after the login that made it.
    public var lifetime: Double
    /// Seconds a hand-over code may wait to be redeemed.
    public var codeLifetime: Double
    /// A token's `lastUsedAt` is written at most once in this many seconds (each upgrade
    /// would otherwise be a database write).
    public var touchInterval: Double

    /// The defaults: a day idle, thirty days in all, a code for 60 s.
    public static let standard = SignInPolicy(idleTimeout: 24 * 3600, lifetime: 30 * 24 * 3600)

    /// A policy with these bounds.
    public init(idleTimeout: Double, lifetime: Double, codeLifetime: Double = 60, touchInterval: Double = 60) {
        self.idleTimeout = idleTimeout
        self.lifetime = lifetime
        self.codeLifetime = codeLifetime
        self.touchInterval = touchInterval
    }

    /// When a token last used at `lastUsedAt` and expiring at `expiresAt` stops being valid.
    public func validUntil(lastUsedAt: Double, expiresAt: Double) -> Double {
        min(expiresAt, lastUsedAt + idleTimeout)
    }
}

/// One signed-in session as the database keeps it: everything but its token, of which only
/// a hash is kept.
public struct SignedInSession: Sendable, Equatable {
    /// The public id (16 hex digits): listed and revoked by it.
    public let id: String
    /// Who signed in.
    public let username: String
    /// When the token was made, last used, and when it expires at the latest (Unix seconds).
    public let createdAt: Double
    public var lastUsedAt: Double
    public let expiresAt: Double
    /// The client's address and user agent at sign-in (for `rxlive user sessions`).
    public let clientAddress: String
    public let userAgent: String

    /// A session with these fields.
    public init(id: String, username: String, createdAt: Double, lastUsedAt: Double, expiresAt: Double,
                clientAddress: String, userAgent: String) {
        self.id = id
        self.username = username
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.clientAddress = clientAddress
        self.userAgent = userAgent
    }
}

/// A token just made, and its session. The token is shown once, here, and never stored.
public struct IssuedToken: Sendable {
    public let token: String
    public let session: SignedInSession
}

/// A sign-out every instance must act on: one session, or every session of a user.
public enum Revocation: Sendable, Equatable {
    case session(id: String)
    case user(String)

    var kind: String {
        switch self {
        case .session: "session"
        case .user: "user"
        }
    }

    var value: String {
        switch self {
        case .session(let id): id
        case .user(let name): name
        }
    }

    init?(kind: String, value: String) {
        switch kind {
        case "session": self = .session(id: value)
        case "user": self = .user(value)
        default: return nil
        }
    }
}
