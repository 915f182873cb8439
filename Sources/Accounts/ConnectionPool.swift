import Synchronization

/// Idle connections to one database, handed to one thread at a time. A connection that
/// broke (the server went away) is dropped instead of returned, so the next borrower
/// connects anew: the pool reconnects once the server is back. An idle connection that
/// went stale (its file was deleted or replaced) is dropped before it is used.
final class ConnectionPool: Sendable {
    let database: any CredentialDatabase
    /// At most this many idle connections are kept.
    private let maxIdle: Int
    /// Idle connections. A connection is only ever touched by the one thread that took
    /// it out of this list, so it may cross threads through the lock.
    private let idle: Mutex<[IdleConnection]> = Mutex([])

    private struct IdleConnection: @unchecked Sendable {  // owned by whoever took it from the locked list
        let connection: any CredentialConnection
    }

    init(database: any CredentialDatabase, maxIdle: Int) {
        self.database = database
        self.maxIdle = maxIdle
    }

    /// Runs `body` with a connection: an idle one or a new one. An idle connection that
    /// turns out broken (the server restarted while it waited) is replaced by a new one and
    /// `body` runs once more.
    func withConnection<Result>(_ body: (any CredentialConnection) throws -> Result) throws -> Result {
        if let reused = takeIdle() {
            do {
                return try run(body, on: reused.connection)
            } catch where reused.connection.isBroken {
                return try run(body, on: database.connect())
            }
        }
        return try run(body, on: database.connect())
    }

    /// An idle connection that still reaches its database; stale ones are dropped on the way.
    private func takeIdle() -> IdleConnection? {
        while let candidate = idle.withLock({ $0.popLast() }) {
            if !candidate.connection.isStale { return candidate }
            candidate.connection.retire()
        }
        return nil
    }

    /// Runs `body` on `connection`, then keeps the connection for later unless it broke.
    private func run<Result>(_ body: (any CredentialConnection) throws -> Result, on connection: any CredentialConnection) throws -> Result {
        defer {
            if !connection.isBroken {
                let kept = IdleConnection(connection: connection)
                idle.withLock { connections in
                    if connections.count < maxIdle { connections.append(kept) }
                }
            }
        }
        return try body(connection)
    }
}
