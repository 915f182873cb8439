import Dispatch
import FoundationEssentials
import Glibc
import ProcessSupport
import Synchronization

/// Waits until a revocation may have been logged: a database that can tell (PostgreSQL's
/// LISTEN) returns as soon as one is; an SQLite file is looked at after the interval.
public protocol RevocationWaiter: AnyObject {
    /// Returns after at most `seconds`, earlier when told of a revocation: whether the log
    /// may have changed (false: it surely did not, and need not be read).
    func wait(seconds: Double) -> Bool
}

/// Sleeps, and says the log may have changed.
final class PollingRevocationWaiter: RevocationWaiter {
    func wait(seconds: Double) -> Bool {
        NamedThread.sleep(seconds: seconds)
        return true
    }
}

/// Sleeps, then compares the SQLite file and its write-ahead log with what they were: a
/// commit by any process changes one of them, and an idle server reads nothing (two
/// `stat`s per interval rather than a query).
final class SQLiteRevocationWaiter: RevocationWaiter {
    private let paths: [String]
    private var seen: [FileState?] = []

    private struct FileState: Equatable {
        let device, inode, size: UInt64
        let modified: timespec

        static func == (lhs: FileState, rhs: FileState) -> Bool {
            (lhs.device, lhs.inode, lhs.size, lhs.modified.tv_sec, lhs.modified.tv_nsec)
                == (rhs.device, rhs.inode, rhs.size, rhs.modified.tv_sec, rhs.modified.tv_nsec)
        }
    }

    init(path: String) {
        paths = [path, path + "-wal"]
    }

    func wait(seconds: Double) -> Bool {
        NamedThread.sleep(seconds: seconds)
        let now = paths.map { path -> FileState? in
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return FileState(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: UInt64(info.st_size),
                             modified: info.st_mtim)
        }
        defer { seen = now }
        return now != seen
    }
}

extension SQLiteDatabase {
    public func makeRevocationWaiter() -> any RevocationWaiter { SQLiteRevocationWaiter(path: path) }
}

extension CredentialDatabase {
    public func makeRevocationWaiter() -> any RevocationWaiter { PollingRevocationWaiter() }
}

/// Follows the log of revocations on a thread of its own and tells `onRevoked` of each new
/// one, whichever process or instance logged it (a log out, `rxlive user revoke`, `remove`
/// or `passwd`). Expired sessions and codes are pruned now and then too, and `onEverySecond`
/// runs about once a second (to end live sessions whose sign-in expired).
public final class RevocationWatcher: Sendable {
    private let store: CredentialStore
    private let interval: Double
    private let onRevoked: @Sendable ([Revocation]) -> Void
    private let onError: @Sendable (String) -> Void
    private let onEverySecond: @Sendable () -> Void
    private let stopped = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)

    /// A watcher of `store`'s log; `interval` bounds how long a revocation waits to be read
    /// where the database cannot announce it.
    public init(store: CredentialStore, interval: Double = 0.25,
                onError: @escaping @Sendable (String) -> Void = { _ in },
                onEverySecond: @escaping @Sendable () -> Void = {},
                onRevoked: @escaping @Sendable ([Revocation]) -> Void) {
        self.onEverySecond = onEverySecond
        self.store = store
        self.interval = interval
        self.onRevoked = onRevoked
        self.onError = onError
    }

    /// Starts the thread; the log is read from what is newest now.
    public func start() {
        NamedThread.start(name: "rxlive.sign-out") { [self] in run() }
    }

    /// Stops the thread and waits for it (at most one wait's length).
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }

    private func run() {
        defer { finished.signal() }
        let waiter = store.makeRevocationWaiter()
        var latest: Int64?
        var lastPrune = 0.0
        var lastRead = 0.0
        var lastTick = 0.0
        var lastError = ""
        var changed = true
        while !stopped.load(ordering: .acquiring) {
            do {
                let now = store.clock()
                // Read at least every few seconds whatever the waiter says: a notice lost while
                // a connection was down must not hold a revocation back for long.
                if changed || latest == nil || now - lastRead >= 5 {
                    lastRead = now
                    try readLog(after: &latest)
                }
                if now - lastTick >= 1 {
                    lastTick = now
                    onEverySecond()
                }
                if now - lastPrune >= 600 {
                    lastPrune = now
                    try store.pruneSignIn()
                }
                lastError = ""
            } catch {
                // Said once per kind of failure, not at every poll while the database is down.
                let message = "\(error)"
                if message != lastError { onError(message) }
                lastError = message
            }
            changed = waiter.wait(seconds: interval)
        }
    }

    /// Reads the revocations after `latest` and tells of them; the first read only learns
    /// where the log ends.
    private func readLog(after latest: inout Int64?) throws {
        guard let known = latest else {
            latest = try store.latestRevocation()
            return
        }
        let (newest, revocations) = try store.revocations(after: known)
        latest = newest
        if !revocations.isEmpty { onRevoked(revocations) }
    }
}

extension CredentialStore {
    /// What waits for revocations of this store's database.
    public func makeRevocationWaiter() -> any RevocationWaiter {
        databaseForSignIn.makeRevocationWaiter()
    }
}
