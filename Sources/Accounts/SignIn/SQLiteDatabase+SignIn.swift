import CSQLite

/// Signed-in sessions in SQLite. Other processes on the same file (the `rxlive user`
/// commands) learn of a revocation by reading the log (`RevocationWatcher` polls it).
extension SQLiteConnection {
    func insertSignInCode(hash: String, username: String, expiresAt: Double) throws {
        try run("INSERT INTO sign_in_codes (code_hash, username, expires_at) VALUES (?, ?, ?)",
                [.text(hash), .text(username), .real(expiresAt)])
    }

    func takeSignInCode(hash: String, now: Double) throws -> String? {
        try transaction(immediate: true) {
            let found = try query("SELECT username, expires_at FROM sign_in_codes WHERE code_hash = ?", [.text(hash)]) {
                (Self.text($0, 0), sqlite3_column_double($0, 1))
            }.first
            guard let found else { return nil }
            try run("DELETE FROM sign_in_codes WHERE code_hash = ?", [.text(hash)])
            return found.1 > now ? found.0 : nil
        }
    }

    func insertSignedInSession(_ session: SignedInSession, tokenHash: String) throws {
        try run("""
            INSERT INTO sign_in_sessions (id, token_hash, username, created_at, last_used_at, expires_at, client_address, user_agent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(session.id), .text(tokenHash), .text(session.username), .real(session.createdAt),
                  .real(session.lastUsedAt), .real(session.expiresAt), .text(session.clientAddress), .text(session.userAgent)])
    }

    func signedInSession(tokenHash: String) throws -> SignedInSession? {
        try query("\(Self.sessionColumns) WHERE token_hash = ?", [.text(tokenHash)], row: Self.session).first
    }

    func touchSignedInSession(id: String, at time: Double) throws {
        try run("UPDATE sign_in_sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?", [.real(time), .text(id), .real(time)])
    }

    func revoke(_ revocation: Revocation, at time: Double) throws -> [String] {
        try transaction(immediate: true) {
            let column = revocation.kind == "user" ? "username" : "id"
            let ids = try query("SELECT id FROM sign_in_sessions WHERE \(column) = ?", [.text(revocation.value)]) { Self.text($0, 0) }
            try run("DELETE FROM sign_in_sessions WHERE \(column) = ?", [.text(revocation.value)])
            if revocation.kind == "user" { try run("DELETE FROM sign_in_codes WHERE username = ?", [.text(revocation.value)]) }
            try run("INSERT INTO sign_in_revocations (kind, value, at) VALUES (?, ?, ?)",
                    [.text(revocation.kind), .text(revocation.value), .real(time)])
            return ids
        }
    }

    func signedInSessions(of username: String) throws -> [SignedInSession] {
        try query("\(Self.sessionColumns) WHERE username = ? ORDER BY created_at, id", [.text(username)], row: Self.session)
    }

    func revocations(after sequence: Int64) throws -> [(sequence: Int64, revocation: Revocation)] {
        try query("SELECT sequence, kind, value FROM sign_in_revocations WHERE sequence > ? ORDER BY sequence", [.integer(sequence)]) {
            (sqlite3_column_int64($0, 0), Revocation(kind: Self.text($0, 1), value: Self.text($0, 2)))
        }.compactMap { row in row.1.map { (sequence: row.0, revocation: $0) } }
    }

    func latestRevocation() throws -> Int64 {
        try query("SELECT coalesce(max(sequence), 0) FROM sign_in_revocations") { sqlite3_column_int64($0, 0) }.first ?? 0
    }

    func pruneSignIn(now: Double, logBefore: Double) throws {
        try run("DELETE FROM sign_in_sessions WHERE expires_at <= ?", [.real(now)])
        try run("DELETE FROM sign_in_codes WHERE expires_at <= ?", [.real(now)])
        try run("DELETE FROM sign_in_revocations WHERE at < ?", [.real(logBefore)])
    }

    private static let sessionColumns =
        "SELECT id, username, created_at, last_used_at, expires_at, client_address, user_agent FROM sign_in_sessions"

    private static func session(_ row: OpaquePointer) -> SignedInSession {
        SignedInSession(id: text(row, 0), username: text(row, 1), createdAt: sqlite3_column_double(row, 2),
                        lastUsedAt: sqlite3_column_double(row, 3), expiresAt: sqlite3_column_double(row, 4),
                        clientAddress: text(row, 5), userAgent: text(row, 6))
    }
}
