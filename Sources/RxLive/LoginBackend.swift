import Accounts
import EventLoop
import FoundationEssentials
import Glibc
import Logging
import RxEventLoop

/// The account store behind the login form, built from the configuration: a database,
/// the hasher, and the worker pool that runs the checks off the event loops.
struct LoginBackend {
    let store: CredentialStore
    let workers: WorkerPool

    /// The store of `location` (for `serve` and the `user` commands); an SQLite file's
    /// warnings (replaced while open, say) go to `logger`, else to standard error.
    static func store(_ location: DatabaseLocation, logger: Logger? = nil) throws -> CredentialStore {
        let database: any CredentialDatabase
        switch location {
        case .sqlite(let path):
            var file = SQLiteDatabase(path: path)
            if let logger {
                file.onWarning = { message in logger.warning("\(message)") }
            }
            database = file
        case .postgres(let uri):
            database = PostgresDatabase(uri: uri)
        }
        let hasher: PasswordHasher
        do {
            hasher = try PasswordHasher()
        } catch {
            throw ConfigurationError(description: "cannot hash passwords: \(error)")
        }
        return CredentialStore(database: database, hasher: hasher)
    }

    /// Opens the store and migrates its schema. A local SQLite file that cannot be opened
    /// stops the start; a PostgreSQL server that is down does not (logins answer
    /// `login_unavailable` until it is back, and the schema is migrated then).
    static func start(_ configuration: Configuration, logger: Logger) throws -> LoginBackend {
        let store = try store(configuration.database, logger: logger)
        do {
            try store.migrate()
        } catch {
            if case .sqlite = configuration.database {
                throw ConfigurationError(description: "--database \(configuration.database): \(error)")
            }
            logger.warning("the accounts database is unavailable; logins fail until it is back",
                           metadata: ["database": "\(configuration.database)", "error": "\(error)"])
        }
        return LoginBackend(store: store, workers: WorkerPool(threads: configuration.loginWorkers, name: "rxlive.login"))
    }

    /// The login service of one session, answering on the loop it subscribes from; with
    /// `onAccepted`, a right password also runs it (on the worker thread).
    func service(clientAddress: String, fallback loop: EventLoop, logger: Logger,
                 onAccepted: (@Sendable (String) -> Void)? = nil) -> StoreLoginService {
        StoreLoginService(
            store: store, workers: workers, clientAddress: clientAddress,
            homeScheduler: { LoopScheduler(loop: EventLoop.current ?? loop) },
            onUnavailable: { reason in logger.error("login unavailable: the accounts database did not answer", metadata: ["error": "\(reason)"]) },
            onAccepted: onAccepted)
    }
}
