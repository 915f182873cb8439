/// Signed-in sessions in PostgreSQL. A revocation is logged and announced with
/// `NOTIFY rxlive_sign_out` in the same transaction, so every instance that `LISTEN`s
/// (`PostgresRevocationWaiter`) hears of it once it is committed.
extension PostgresConnection {
    /// The channel instances listen on.
    static let signOutChannel = "rxlive_sign_out"

    func insertSignInCode(hash: String, username: String, expiresAt: Double) throws {
        _ = try query("INSERT INTO sign_in_codes (code_hash, username, expires_at) VALUES ($1, $2, $3)",
                      [hash, username, String(expiresAt)])
    }

    func takeSignInCode(hash: String, now: Double) throws -> String? {
        // One statement: two instances redeeming the same code cannot both get a row.
        guard let row = try query("DELETE FROM sign_in_codes WHERE code_hash = $1 RETURNING username, expires_at", [hash]).first,
              let expiresAt = Double(row[1]) else { return nil }
        return expiresAt > now ? row[0] : nil
    }

    func insertSignedInSession(_ session: SignedInSession, tokenHash: String) throws {
        _ = try query("""
            INSERT INTO sign_in_sessions (id, token_hash, username, created_at, last_used_at, expires_at, client_address, user_agent)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """, [session.id, tokenHash, session.username, String(session.createdAt), String(session.lastUsedAt),
                  String(session.expiresAt), session.clientAddress, session.userAgent])
    }

    func signedInSession(tokenHash: String) throws -> SignedInSession? {
        try query("\(Self.sessionColumns) WHERE token_hash = $1", [tokenHash]).first.flatMap(Self.session)
    }

    func touchSignedInSession(id: String, at time: Double) throws {
        _ = try query("UPDATE sign_in_sessions SET last_used_at = $1 WHERE id = $2 AND last_used_at < $1", [String(time), id])
    }

    func revoke(_ revocation: Revocation, at time: Double) throws -> [String] {
        try transaction {
            let column = revocation.kind == "user" ? "username" : "id"
            let ids = try query("DELETE FROM sign_in_sessions WHERE \(column) = $1 RETURNING id", [revocation.value]).map { $0[0] }
            if revocation.kind == "user" { _ = try query("DELETE FROM sign_in_codes WHERE username = $1", [revocation.value]) }
            _ = try query("INSERT INTO sign_in_revocations (kind, value, at) VALUES ($1, $2, $3)",
                          [revocation.kind, revocation.value, String(time)])
            _ = try query("SELECT pg_notify($1, '')", [Self.signOutChannel])
            return ids
        }
    }

    func signedInSessions(of username: String) throws -> [SignedInSession] {
        try query("\(Self.sessionColumns) WHERE username = $1 ORDER BY created_at, id", [username]).compactMap(Self.session)
    }

    func revocations(after sequence: Int64) throws -> [(sequence: Int64, revocation: Revocation)] {
        try query("SELECT sequence, kind, value FROM sign_in_revocations WHERE sequence > $1 ORDER BY sequence", [String(sequence)])
            .compactMap { row in
                guard let number = Int64(row[0]), let revocation = Revocation(kind: row[1], value: row[2]) else { return nil }
                return (sequence: number, revocation: revocation)
            }
    }

    func latestRevocation() throws -> Int64 {
        try query("SELECT coalesce(max(sequence), 0) FROM sign_in_revocations").first.flatMap { Int64($0[0]) } ?? 0
    }

    func pruneSignIn(now: Double, logBefore: Double) throws {
        _ = try query("DELETE FROM sign_in_sessions WHERE expires_at <= $1", [String(now)])
        _ = try query("DELETE FROM sign_in_codes WHERE expires_at <= $1", [String(now)])
        _ = try query("DELETE FROM sign_in_revocations WHERE at < $1", [String(logBefore)])
    }

    private static let sessionColumns =
        "SELECT id, username, created_at, last_used_at, expires_at, client_address, user_agent FROM sign_in_sessions"

    private static func session(_ row: [String]) -> SignedInSession? {
        guard row.count == 7, let created = Double(row[2]), let used = Double(row[3]), let expires = Double(row[4]) else { return nil }
        return SignedInSession(id: row[0], username: row[1], createdAt: created, lastUsedAt: used, expiresAt: expires,
                               clientAddress: row[5], userAgent: row[6])
    }
}
