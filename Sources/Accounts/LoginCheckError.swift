/// Why a login check has no answer.
public enum LoginCheckError: Error, Equatable, Sendable {
    /// The database behind the accounts cannot be reached.
    case unavailable
    /// Too many failed attempts for this user or address; the next attempt may come after
    /// this many seconds.
    case rateLimited(retryAfter: Double)
    /// The hashing queue is full: nothing was checked or counted; the next attempt may come
    /// after this many seconds.
    case busy(retryAfter: Double)
    /// The username or password is one no account can have (`CredentialRules` says why):
    /// refused before any hashing, counting or database work.
    case invalid(String)
}
