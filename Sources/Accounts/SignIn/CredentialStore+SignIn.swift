/// Signing in: a right password gives a short-lived, single-use hand-over code; the code is
/// redeemed for a session token; the token names a signed-in session until it is revoked,
/// idle too long, or past its lifetime. Only hashes of codes and tokens are stored.
///
/// Every method blocks (database round trips): call them from a `WorkerPool` or a
/// command-line tool, never from an event loop.
extension CredentialStore {
    /// A hand-over code for `username`, valid for `policy.codeLifetime` seconds and once.
    public func issueSignInCode(for username: String, policy: SignInPolicy) throws -> String {
        let name = try CredentialRules.normalizedUsername(username)
        let code = SignInSecret.makeCode()
        try withConnection { try $0.insertSignInCode(hash: SignInSecret.hash(code), username: name, expiresAt: clock() + policy.codeLifetime) }
        return code
    }

    /// A new token for the user of `code`, which is used up whatever the answer; nil when the
    /// code is unknown, used already or expired, or its account is gone.
    public func redeemSignInCode(_ code: String, clientAddress: String, userAgent: String, policy: SignInPolicy) throws -> IssuedToken? {
        guard SignInSecret.isWellFormed(code) else { return nil }
        return try withConnection { connection in
            guard let username = try connection.takeSignInCode(hash: SignInSecret.hash(code), now: clock()),
                  try connection.passwordHash(of: username) != nil else { return nil }
            return try issue(for: username, lifetime: policy.lifetime, clientAddress: clientAddress, userAgent: userAgent, on: connection)
        }
    }

    /// A token for scripts (`rxlive user token`); nil when there is no such account.
    public func issueToken(for username: String, lifetime: Double, clientAddress: String = "", userAgent: String) throws -> IssuedToken? {
        let name = try CredentialRules.normalizedUsername(username)
        return try withConnection { connection in
            guard try connection.passwordHash(of: name) != nil else { return nil }
            return try issue(for: name, lifetime: lifetime, clientAddress: clientAddress, userAgent: userAgent, on: connection)
        }
    }

    private func issue(for username: String, lifetime: Double, clientAddress: String, userAgent: String,
                       on connection: any CredentialConnection) throws -> IssuedToken {
        let now = clock()
        let token = SignInSecret.makeToken()
        let session = SignedInSession(id: SignInSecret.makeSessionID(), username: username, createdAt: now, lastUsedAt: now,
                                      expiresAt: now + lifetime, clientAddress: String(clientAddress.prefix(64)),
                                      userAgent: String(userAgent.prefix(256)))
        try connection.insertSignedInSession(session, tokenHash: SignInSecret.hash(token))
        return IssuedToken(token: token, session: session)
    }

    /// The session `token` names while it is valid under `policy`, its use recorded (at most
    /// once per `policy.touchInterval`); nil for an unknown, revoked or expired token.
    public func signedInSession(token: String, policy: SignInPolicy) throws -> SignedInSession? {
        guard SignInSecret.isWellFormed(token) else { return nil }
        return try withConnection { connection in
            guard var session = try connection.signedInSession(tokenHash: SignInSecret.hash(token)) else { return nil }
            let now = clock()
            guard now < policy.validUntil(lastUsedAt: session.lastUsedAt, expiresAt: session.expiresAt) else { return nil }
            if now - session.lastUsedAt >= policy.touchInterval {
                try connection.touchSignedInSession(id: session.id, at: now)
                session.lastUsedAt = now
            }
            return session
        }
    }

    /// Ends the session `token` names (a log out); the session it was, nil when none.
    public func revokeSession(token: String) throws -> SignedInSession? {
        guard SignInSecret.isWellFormed(token) else { return nil }
        return try withConnection { connection in
            guard let session = try connection.signedInSession(tokenHash: SignInSecret.hash(token)) else { return nil }
            _ = try connection.revoke(.session(id: session.id), at: clock())
            return session
        }
    }

    /// Ends one session of `username` by its id; `false` when the user has no such session.
    public func revokeSession(id: String, of username: String) throws -> Bool {
        let name = (try? CredentialRules.normalizedUsername(username)) ?? username
        return try withConnection { connection in
            guard try connection.signedInSessions(of: name).contains(where: { $0.id == id }) else { return false }
            return try !connection.revoke(.session(id: id), at: clock()).isEmpty
        }
    }

    /// Ends every session of `username` (log out everywhere); how many there were.
    @discardableResult
    public func revokeAllSessions(of username: String) throws -> Int {
        let name = (try? CredentialRules.normalizedUsername(username)) ?? username
        return try withConnection { try $0.revoke(.user(name), at: clock()).count }
    }

    /// The sessions of `username` still valid under `policy`, oldest first.
    public func signedInSessions(of username: String, policy: SignInPolicy) throws -> [SignedInSession] {
        let name = (try? CredentialRules.normalizedUsername(username)) ?? username
        let now = clock()
        return try withConnection { try $0.signedInSessions(of: name) }
            .filter { now < policy.validUntil(lastUsedAt: $0.lastUsedAt, expiresAt: $0.expiresAt) }
    }

    /// The revocations logged after `sequence`, and the sequence to ask from next time.
    public func revocations(after sequence: Int64) throws -> (latest: Int64, revocations: [Revocation]) {
        try withConnection { connection in
            let rows = try connection.revocations(after: sequence)
            return (rows.last?.sequence ?? sequence, rows.map(\.revocation))
        }
    }

    /// The newest revocation's sequence: a watcher starts after it.
    public func latestRevocation() throws -> Int64 {
        try withConnection { try $0.latestRevocation() }
    }

    /// Deletes expired sessions and codes, and revocations older than an hour (every
    /// instance has read them by then).
    public func pruneSignIn() throws {
        let now = clock()
        try withConnection { try $0.pruneSignIn(now: now, logBefore: now - 3600) }
    }
}
