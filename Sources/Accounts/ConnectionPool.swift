import Synchronization

/// Idle connections to one database, handed to one thread at a time. A connection that
/// broke (the server went away) is dropped instead of returned, so the next borrower
/// connects anew: the pool reconnects once the server is back.
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

    /// Runs `body` with a connection: an idle one or a new one.
    func withConnection<Result>(_ body: (any CredentialConnection) throws -> Result) throws -> Result {
        let reused = idle.withLock { $0.popLast() }
        let connection = try reused?.connection ?? database.connect()
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
