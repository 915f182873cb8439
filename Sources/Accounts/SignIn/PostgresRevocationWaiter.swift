import CLibPQ
import Glibc

extension PostgresDatabase {
    public func makeRevocationWaiter() -> any RevocationWaiter { PostgresRevocationWaiter(database: self) }
}

/// `LISTEN rxlive_sign_out` on a connection of its own: a wait returns as soon as another
/// instance commits a revocation (its `NOTIFY`), so a log out reaches every instance at once
/// rather than at the next poll. A lost connection is made again at the next wait.
final class PostgresRevocationWaiter: RevocationWaiter {
    private let database: PostgresDatabase
    private var connection: OpaquePointer?

    init(database: PostgresDatabase) {
        self.database = database
    }

    deinit {
        PQfinish(connection)
    }

    func wait(seconds: Double) -> Bool {
        let wasListening = connection != nil && PQstatus(connection) == CONNECTION_OK
        guard let connection = listening() else {
            // The server is down: the watcher's next read fails and says so; wait between tries.
            usleep(UInt32(seconds * 1_000_000))
            return true
        }
        // A new LISTEN may have missed what was announced before it: read the log once.
        if !wasListening || drainNotifications(connection) { return true }
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(seconds * 1000))
        return drainNotifications(connection)
    }

    /// The listening connection, made (and LISTEN sent) when there is none or it broke.
    private func listening() -> OpaquePointer? {
        if let connection, PQstatus(connection) == CONNECTION_OK { return connection }
        PQfinish(connection)
        connection = nil
        guard let made = try? database.connectRaw() else { return nil }
        let result = PQexec(made, "LISTEN \(PostgresConnection.signOutChannel)")
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            PQfinish(made)
            return nil
        }
        connection = made
        return made
    }

    /// Reads what arrived; whether any notification was among it.
    private func drainNotifications(_ connection: OpaquePointer) -> Bool {
        guard PQconsumeInput(connection) == 1 else { return true }  // broken: let the caller read the log now
        var notified = false
        while let notification = PQnotifies(connection) {
            notified = true
            PQfreemem(notification)
        }
        return notified
    }
}
