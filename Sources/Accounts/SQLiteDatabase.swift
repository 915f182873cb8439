import CSQLite
import FoundationEssentials
import Glibc
import ProcessSupport
import Synchronization

/// Accounts in a local SQLite file (the system's libsqlite3), created readable by its
/// owner only (0600) in a folder created 0700. Several processes may share the file:
/// it runs in WAL mode, and writers wait up to `busyTimeout` for each other.
///
/// The store follows its file: a connection remembers the device and inode of the file it
/// opened, and one whose path now names another file, or none, is dropped before its next
/// use (`isStale`). The file is created only at the first open: a file deleted or moved
/// away later makes every connect fail (logins answer unavailable) until a file is back at
/// the path, so nothing is ever answered from an unlinked file or a fresh empty one.
///
/// A file that its group or other users may read or write is refused, as a TLS key is.
public struct SQLiteDatabase: CredentialDatabase {
    /// The database file.
    public let path: String
    /// How long a statement waits for another connection's write lock, in milliseconds.
    public var busyTimeout: Int32 = 5000
    /// Told, in one line, what an operator should know but that does not stop the store (a
    /// file replaced under a running server and reopened). Standard error until set.
    public var onWarning: @Sendable (String) -> Void = { message in
        StandardError.write("warning: \(message)\n")
    }
    /// The file the last connection opened, shared by every copy of this value.
    private let opened = OpenedFile()

    /// The database in the file at `path`.
    public init(path: String) {
        self.path = path
    }

    public var displayName: String { "sqlite:\(path)" }

    /// Creates the file's folder (0700) and the file itself (0600) when missing, so the
    /// file never exists with wider permissions than its owner's.
    public func createFileIfMissing() throws {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CredentialStoreError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }

    public func connect() throws -> any CredentialConnection {
        let previous = opened.identity.withLock { $0 }
        if previous == nil {
            try createFileIfMissing()
        } else if FileIdentity(path: path) == nil {
            throw CredentialStoreError("\(path): the database file is gone (deleted or moved away); "
                + "logins are refused until it is back")
        }
        var handle: OpaquePointer?
        // SQLITE_OPEN_READWRITE without CREATE: the file must be there.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(handle)
            throw CredentialStoreError("cannot open \(path): \(message)")
        }
        guard let identity = FileIdentity(path: path) else {
            sqlite3_close(handle)
            throw CredentialStoreError("\(path): the database file is gone (deleted or moved away)")
        }
        if let refusal = Self.permissionRefusal(path: path, mode: identity.mode) {
            sqlite3_close(handle)
            throw CredentialStoreError(refusal)
        }
        sqlite3_busy_timeout(handle, busyTimeout)
        let watch = SQLiteWriteWatch(path: path, opened: opened, onWarning: onWarning)
        let connection = SQLiteConnection(handle: handle, path: path, identity: identity, watch: watch)
        try connection.execute("PRAGMA journal_mode=WAL")
        // In WAL mode NORMAL syncs at checkpoints, not at every commit: a power cut may lose the
        // last counters but never corrupts the file, and a login costs no fsync.
        try connection.execute("PRAGMA synchronous=NORMAL")
        let replaced = opened.identity.withLock { known in
            defer { known = identity }
            return known.map { !$0.isSameFile(as: identity) } ?? false
        }
        if replaced {
            onWarning("the accounts database \(path) was replaced while open; reopened the file now at that path")
            watch.recordOwnWrite()
        } else {
            // Stat again: setting WAL mode on a new file wrote it.
            watch.check(FileIdentity(path: path)?.content)
        }
        return connection
    }

    /// Why a file with `mode` is refused: its group or others may read or write it.
    static func permissionRefusal(path: String, mode: mode_t) -> String? {
        let permissions = mode & 0o777
        guard permissions & 0o077 != 0 else { return nil }
        return "the accounts database \(path) is accessible to group or others (mode "
            + String(permissions, radix: 8) + "): run chmod 600 on it"
    }
}

/// The identity of the file last opened at a path, and its contents as this process last
/// wrote or saw them (shared by copies of an `SQLiteDatabase` and their connections).
final class OpenedFile: Sendable {
    let identity = Mutex<FileIdentity?>(nil)
    let content = Mutex<ContentStamp?>(nil)
}

/// Which file a path names: its device and inode (and its mode, for the permission check,
/// and its size and modification time, for `SQLiteWriteWatch`).
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let mode: mode_t
    let content: ContentStamp

    /// The file at `path` now; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        mode = info.st_mode
        content = ContentStamp(info)
    }

    func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }
}

/// One open SQLite database handle.
final class SQLiteConnection: CredentialConnection {
    private let handle: OpaquePointer
    private let path: String
    private let identity: FileIdentity
    /// Kept as long as the handle: its checkpoint hook calls the watch.
    private let watch: SQLiteWriteWatch
    private(set) var isBroken = false
    var isMigrated = false

    /// The schema, one step per version: `PRAGMA user_version` says how many have run.
    private static let migrations = [
        """
        CREATE TABLE accounts (
            username TEXT PRIMARY KEY NOT NULL,
            password_hash TEXT NOT NULL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL);
        CREATE TABLE login_failures (
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            failures INTEGER NOT NULL,
            last_failure REAL NOT NULL,
            PRIMARY KEY (kind, key));
        """,
        // Old counters are deleted by age.
        "CREATE INDEX login_failures_age ON login_failures (last_failure);",
        // Signed-in sessions (tokens by hash), hand-over codes and the log of sign-outs.
        """
        CREATE TABLE sign_in_sessions (
            id TEXT PRIMARY KEY NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            username TEXT NOT NULL,
            created_at REAL NOT NULL,
            last_used_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            client_address TEXT NOT NULL,
            user_agent TEXT NOT NULL);
        CREATE INDEX sign_in_sessions_user ON sign_in_sessions (username);
        CREATE TABLE sign_in_codes (
            code_hash TEXT PRIMARY KEY NOT NULL,
            username TEXT NOT NULL,
            expires_at REAL NOT NULL);
        CREATE TABLE sign_in_revocations (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            value TEXT NOT NULL,
            at REAL NOT NULL);
        """,
    ]

    init(handle: OpaquePointer, path: String, identity: FileIdentity, watch: SQLiteWriteWatch) {
        self.handle = handle
        self.path = path
        self.identity = identity
        self.watch = watch
        watch.install(on: handle)
    }

    /// One `stat` of the path: stale when the path names no file, or another file. The same
    /// file rewritten from outside is not stale (reopening would read the same log) but told.
    var isStale: Bool {
        guard let current = FileIdentity(path: path) else { return true }
        guard current.isSameFile(as: identity) else { return true }
        watch.check(current.content)
        return false
    }

    deinit {
        sqlite3_close_v2(handle)
        // The last connection to close checkpoints the log into the file.
        watch.recordOwnWrite()
    }

    func migrate() throws {
        try transaction(immediate: true) {
            let version = try query("PRAGMA user_version") { Int(sqlite3_column_int64($0, 0)) }.first ?? 0
            guard version < Self.migrations.count else { return }
            for step in Self.migrations[version...] {
                try execute(step)
            }
            try execute("PRAGMA user_version = \(Self.migrations.count)")
        }
    }

    func passwordHash(of username: String) throws -> String? {
        try query("SELECT password_hash FROM accounts WHERE username = ?", [.text(username)]) { Self.text($0, 0) }.first
    }

    func insertAccount(_ username: String, passwordHash: String, now: Double) throws -> Bool {
        try run("INSERT INTO accounts (username, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [.text(username), .text(passwordHash), .real(now), .real(now)])
        return sqlite3_changes(handle) == 1
    }

    func updatePasswordHash(_ passwordHash: String, of username: String, now: Double) throws {
        try run("UPDATE accounts SET password_hash = ?, updated_at = ? WHERE username = ?",
                [.text(passwordHash), .real(now), .text(username)])
    }

    func deleteAccount(_ username: String) throws -> Bool {
        try run("DELETE FROM accounts WHERE username = ?", [.text(username)])
        return sqlite3_changes(handle) == 1
    }

    func accountNames() throws -> [String] {
        try query("SELECT username FROM accounts ORDER BY username") { Self.text($0, 0) }
    }

    func updateFailureCounters<Result>(
        _ keys: [ThrottleKey], _ body: (inout [ThrottleKey: FailureCounter]) -> Result
    ) throws -> Result {
        // BEGIN IMMEDIATE takes the write lock first: no other process reads stale counters meanwhile.
        try transaction(immediate: true) {
            var counters: [ThrottleKey: FailureCounter] = [:]
            for key in keys {
                let found = try query("SELECT failures, last_failure FROM login_failures WHERE kind = ? AND key = ?",
                                      [.text(key.kind.rawValue), .text(key.value)]) {
                    FailureCounter(failures: Int(sqlite3_column_int64($0, 0)), lastFailure: sqlite3_column_double($0, 1))
                }
                if let counter = found.first { counters[key] = counter }
            }
            let before = counters
            let result = body(&counters)
            for key in keys where counters[key] != before[key] {
                if let counter = counters[key] {
                    try run("""
                        INSERT INTO login_failures (kind, key, failures, last_failure) VALUES (?, ?, ?, ?)
                        ON CONFLICT (kind, key) DO UPDATE SET failures = excluded.failures, last_failure = excluded.last_failure
                        """, [.text(key.kind.rawValue), .text(key.value), .integer(Int64(counter.failures)), .real(counter.lastFailure)])
                } else {
                    try run("DELETE FROM login_failures WHERE kind = ? AND key = ?", [.text(key.kind.rawValue), .text(key.value)])
                }
            }
            return result
        }
    }

    func pruneFailureCounters(before: Double, knownBefore: Double) throws {
        let known = ThrottleKey.Kind.knownAddress.rawValue
        try run("DELETE FROM login_failures WHERE last_failure < ? AND kind <> ?", [.real(before), .text(known)])
        try run("DELETE FROM login_failures WHERE last_failure < ? AND kind = ?", [.real(knownBefore), .text(known)])
    }

    /// Empties the write-ahead log at the path, which still belongs to the old file: a
    /// connection opened at the path after a `rename` would otherwise replay its pages into
    /// the new file. Best effort: the pages go into the old (unlinked) file.
    func retire() {
        _ = sqlite3_exec(handle, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil)
    }

    /// Rows in `table` (for tests that check what an attempt wrote).
    func rowCount(of table: String) throws -> Int {
        try query("SELECT count(*) FROM \(table)") { Int(sqlite3_column_int64($0, 0)) }.first ?? 0
    }

    // MARK: statements

    enum Value {
        case text(String)
        case real(Double)
        case integer(Int64)
    }

    /// SQLite copies bound text right away (SQLITE_TRANSIENT, a macro Swift cannot import).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure() }
    }

    func run(_ sql: String, _ values: [Value]) throws {
        _ = try query(sql, values) { _ in () }
    }

    func query<Row>(_ sql: String, _ values: [Value] = [], row: (OpaquePointer) -> Row) throws -> [Row] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure() }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .text(let text): status = Self.bind(text, to: statement, at: index)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            }
            guard status == SQLITE_OK else { throw failure() }
        }
        var rows: [Row] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: rows.append(row(statement))
            case SQLITE_DONE: return rows
            default: throw failure()
            }
        }
    }

    func transaction<Result>(immediate: Bool, _ body: () throws -> Result) throws -> Result {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Binds `text` with its UTF-8 byte length, never as a C string: a NUL inside is bound,
    /// not an end that cuts the rest off.
    private static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // An empty buffer may have no address, and a nil pointer would bind NULL.
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(statement, index, "", 0, transient) }
            return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                sqlite3_bind_text(statement, index, chars, Int32(bytes.count), transient)
            }
        }
    }

    /// A text column read with its byte length (a NUL inside is kept).
    static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let start = sqlite3_column_text(statement, column) else { return "" }
        let length = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
    }

    /// The connection's last error; an I/O or corruption error also marks it broken.
    private func failure() -> CredentialStoreError {
        let code = sqlite3_errcode(handle) & 0xff
        if code == SQLITE_IOERR || code == SQLITE_CORRUPT || code == SQLITE_NOTADB || code == SQLITE_CANTOPEN {
            isBroken = true
        }
        return CredentialStoreError("\(path): \(String(cString: sqlite3_errmsg(handle)))")
    }
}
