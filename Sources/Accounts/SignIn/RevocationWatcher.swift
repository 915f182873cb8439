import Foundation
import Synchronization

/// Waits until a revocation may have been logged: a database that can tell (PostgreSQL's
/// LISTEN) returns as soon as one is; others sleep the interval, and the log is polled.
public protocol RevocationWaiter: AnyObject {
    /// Returns after at most `seconds`, earlier when told of a revocation.
    func wait(seconds: Double)
}

/// Sleeps: the log is read after each wait.
final class PollingRevocationWaiter: RevocationWaiter {
    func wait(seconds: Double) {
        Thread.sleep(forTimeInterval: seconds)
    }
}

extension CredentialDatabase {
    public func makeRevocationWaiter() -> any RevocationWaiter { PollingRevocationWaiter() }
}

/// Follows the log of revocations on a thread of its own and tells `onRevoked` of each new
/// one, whichever process or instance logged it (a log out, `rxlive user revoke`, `remove`
/// or `passwd`). Expired sessions and codes are pruned now and then too.
public final class RevocationWatcher: Sendable {
    private let store: CredentialStore
    private let interval: Double
    private let onRevoked: @Sendable ([Revocation]) -> Void
    private let onError: @Sendable (String) -> Void
    private let stopped = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)

    /// A watcher of `store`'s log; `interval` bounds how long a revocation waits to be read
    /// where the database cannot announce it.
    public init(store: CredentialStore, interval: Double = 0.25,
                onError: @escaping @Sendable (String) -> Void = { _ in },
                onRevoked: @escaping @Sendable ([Revocation]) -> Void) {
        self.store = store
        self.interval = interval
        self.onRevoked = onRevoked
        self.onError = onError
    }

    /// Starts the thread; the log is read from what is newest now.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "rxlive.sign-out"
        thread.start()
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
        var lastError = ""
        while !stopped.load(ordering: .acquiring) {
            do {
                if let known = latest {
                    let (newest, revocations) = try store.revocations(after: known)
                    latest = newest
                    if !revocations.isEmpty { onRevoked(revocations) }
                } else {
                    latest = try store.latestRevocation()
                }
                let now = store.clock()
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
            waiter.wait(seconds: interval)
        }
    }
}

extension CredentialStore {
    /// What waits for revocations of this store's database.
    public func makeRevocationWaiter() -> any RevocationWaiter {
        databaseForSignIn.makeRevocationWaiter()
    }
}
