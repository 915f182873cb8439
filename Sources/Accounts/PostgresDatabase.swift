import CLibPQ
import FoundationEssentials
import Glibc

/// Accounts on a PostgreSQL server (PostgreSQL's own client library, libpq), shared by
/// every instance that names it: their failed-login counters too.
///
/// libpq's blocking API, run on the `WorkerPool`'s threads: each check holds one pooled
/// connection for its few round trips, so an event loop never waits on the server.
public struct PostgresDatabase: CredentialDatabase {
    /// A libpq connection URI (`postgres://user@host:port/db?…`).
    public let uri: String
    /// Seconds to wait for a connection when the URI does not say (`connect_timeout`).
    public var connectTimeout = 5

    /// The server at `uri`.
    public init(uri: String) {
        self.uri = uri
    }

    public var displayName: String { "postgres" }

    public func connect() throws -> any CredentialConnection {
        PostgresConnection(try connectRaw())
    }

    /// A libpq connection to the server, its notices silenced.
    func connectRaw() throws -> OpaquePointer {
        // libpq's own words on a URI it cannot read quote the token, which may be the password.
        if let problem = PostgresURIReading.problem(uri) {
            throw CredentialStoreError("libpq cannot read the PostgreSQL URI: \(problem)")
        }
        // Later keywords win over those expanded from `dbname`, so the URI's own timeout wins.
        let keywords = ["connect_timeout", "dbname"]
        let values = [String(connectTimeout), uri]
        let connection = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(connection)
            let reason = PostgresURIReading.scrubbed(message.trimmingTrailingNewlines, uri: uri)
            throw CredentialStoreError("cannot connect to PostgreSQL: \(reason)")
        }
        // The server's notices ("relation already exists, skipping") are not for the log.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        return connection
    }
}

/// One libpq connection.
final class PostgresConnection: CredentialConnection {
    private let connection: OpaquePointer
    var isMigrated = false
    /// A server connection does not go stale the way a file does; a lost one is `isBroken`.
    var isStale: Bool { false }
    func retire() {}

    /// The schema, one step per version; `rxlive_schema` says how many have run.
    private static let migrations = [
        """
        CREATE TABLE accounts (
            username text PRIMARY KEY,
            password_hash text NOT NULL,
            created_at double precision NOT NULL,
            updated_at double precision NOT NULL);
        CREATE TABLE login_failures (
            kind text NOT NULL,
            key text NOT NULL,
            failures integer NOT NULL,
            last_failure double precision NOT NULL,
            PRIMARY KEY (kind, key));
        """,
        // Old counters are deleted by age.
        "CREATE INDEX login_failures_age ON login_failures (last_failure);",
        // Signed-in sessions (tokens by hash), hand-over codes and the log of sign-outs.
        """
        CREATE TABLE sign_in_sessions (
            id text PRIMARY KEY,
            token_hash text NOT NULL UNIQUE,
            username text NOT NULL,
            created_at double precision NOT NULL,
            last_used_at double precision NOT NULL,
            expires_at double precision NOT NULL,
            client_address text NOT NULL,
            user_agent text NOT NULL);
        CREATE INDEX sign_in_sessions_user ON sign_in_sessions (username);
        CREATE TABLE sign_in_codes (
            code_hash text PRIMARY KEY,
            username text NOT NULL,
            expires_at double precision NOT NULL);
        CREATE TABLE sign_in_revocations (
            sequence bigserial PRIMARY KEY,
            kind text NOT NULL,
            value text NOT NULL,
            at double precision NOT NULL);
        """,
    ]
    /// The advisory lock that keeps two instances from migrating at once.
    private static let migrationLock = 0x72_78_6c_69_76_65  // "rxlive"

    init(_ connection: OpaquePointer) {
        self.connection = connection
    }

    deinit {
        PQfinish(connection)
    }

    var isBroken: Bool { PQstatus(connection) != CONNECTION_OK }

    func migrate() throws {
        try transaction {
            _ = try query("SELECT pg_advisory_xact_lock($1)", [String(Self.migrationLock)])
            _ = try query("CREATE TABLE IF NOT EXISTS rxlive_schema (version integer NOT NULL)")
            let version = try query("SELECT version FROM rxlive_schema").first.flatMap { Int($0[0]) }
            if version == nil { _ = try query("INSERT INTO rxlive_schema (version) VALUES (0)") }
            let done = version ?? 0
            guard done < Self.migrations.count else { return }
            for step in Self.migrations[done...] {
                try execute(step)
            }
            _ = try query("UPDATE rxlive_schema SET version = $1", [String(Self.migrations.count)])
        }
    }

    func passwordHash(of username: String) throws -> String? {
        try query("SELECT password_hash FROM accounts WHERE username = $1", [username]).first?[0]
    }

    func insertAccount(_ username: String, passwordHash: String, now: Double) throws -> Bool {
        try query("""
            INSERT INTO accounts (username, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $3)
            ON CONFLICT DO NOTHING RETURNING username
            """, [username, passwordHash, String(now)]).count == 1
    }

    func updatePasswordHash(_ passwordHash: String, of username: String, now: Double) throws {
        _ = try query("UPDATE accounts SET password_hash = $1, updated_at = $2 WHERE username = $3",
                      [passwordHash, String(now), username])
    }

    func deleteAccount(_ username: String) throws -> Bool {
        try query("DELETE FROM accounts WHERE username = $1 RETURNING username", [username]).count == 1
    }

    func accountNames() throws -> [String] {
        try query("SELECT username FROM accounts ORDER BY username").map { $0[0] }
    }

    func updateFailureCounters<Result>(
        _ keys: [ThrottleKey], _ body: (inout [ThrottleKey: FailureCounter]) -> Result
    ) throws -> Result {
        try transaction {
            var counters: [ThrottleKey: FailureCounter] = [:]
            // One transaction-scoped lock per key, taken in key order: other instances
            // checking the same username or address wait here until this one commits.
            for key in keys.sorted() {
                _ = try query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", ["\(key.kind.rawValue):\(key.value)"])
                let row = try query("SELECT failures, last_failure FROM login_failures WHERE kind = $1 AND key = $2",
                                    [key.kind.rawValue, key.value]).first
                if let row, let failures = Int(row[0]), let last = Double(row[1]) {
                    counters[key] = FailureCounter(failures: failures, lastFailure: last)
                }
            }
            let before = counters
            let result = body(&counters)
            for key in keys where counters[key] != before[key] {
                if let counter = counters[key] {
                    _ = try query("""
                        INSERT INTO login_failures (kind, key, failures, last_failure) VALUES ($1, $2, $3, $4)
                        ON CONFLICT (kind, key) DO UPDATE SET failures = excluded.failures, last_failure = excluded.last_failure
                        """, [key.kind.rawValue, key.value, String(counter.failures), String(counter.lastFailure)])
                } else {
                    _ = try query("DELETE FROM login_failures WHERE kind = $1 AND key = $2", [key.kind.rawValue, key.value])
                }
            }
            return result
        }
    }

    func pruneFailureCounters(before: Double, knownBefore: Double) throws {
        let known = ThrottleKey.Kind.knownAddress.rawValue
        _ = try query("DELETE FROM login_failures WHERE last_failure < $1 AND kind <> $2", [String(before), known])
        _ = try query("DELETE FROM login_failures WHERE last_failure < $1 AND kind = $2", [String(knownBefore), known])
    }

    // MARK: statements

    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        _ = try query("BEGIN")
        do {
            let result = try body()
            _ = try query("COMMIT")
            return result
        } catch {
            if !isBroken { PQclear(PQexec(connection, "ROLLBACK")) }
            throw error
        }
    }

    /// Runs statements without parameters (a migration step may hold several).
    private func execute(_ sql: String) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw CredentialStoreError("PostgreSQL: \(String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines)")
        }
    }

    /// Runs one statement with text parameters; the rows as text.
    func query(_ sql: String, _ parameters: [String] = []) throws -> [[String]] {
        try Self.checkParameters(parameters)
        let result = withCStrings(parameters) { values in
            PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines
            throw CredentialStoreError("PostgreSQL: \(message)")
        }
        let rows = PQntuples(result), columns = PQnfields(result)
        return (0..<rows).map { row in
            (0..<columns).map { column in String(cString: PQgetvalue(result, row, column)) }
        }
    }
}

extension PostgresConnection {
    /// libpq sends text parameters as C strings, and PostgreSQL's text cannot hold a NUL:
    /// a parameter with one is refused here rather than cut short at it (a name
    /// `"ada\0zzz"` must never be looked up as `"ada"`).
    static func checkParameters(_ parameters: [String]) throws {
        if parameters.contains(where: { $0.utf8.contains(0) }) {
            throw CredentialStoreError("PostgreSQL: a parameter contains a NUL byte, which text cannot hold")
        }
    }
}

/// Calls `body` with `strings` as a C array of C strings, valid during the call.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

extension String {
    /// The text without the line ends libpq's messages finish with.
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
