import RxSwift
import Synchronization

/// The back end a sign-up form talks to: is a name free, and make the account.
public protocol SignUpService {
    /// Whether `username` is still free.
    func usernameAvailable(_ username: String) -> Single<Bool>
    /// Makes the account; `false` when the name was taken meanwhile.
    func signUp(_ username: String, password: String) -> Single<Bool>
}

/// Accounts kept in memory, answering after a delay as a remote service would.
///
/// Sendable without `@unchecked` when its scheduler is (`MainScheduler`), so `main.swift` can
/// make one at top level for every session (docs/GUIDE.md, "Swift 6"): every stored property
/// is a `let` of a Sendable type, the mutable set inside a `Mutex`. Generic over the scheduler
/// so that a test still passes its `TestScheduler`, which is not Sendable.
public final class InMemorySignUpService<Scheduler: SchedulerType>: SignUpService {
    private let scheduler: Scheduler
    private let latency: RxTimeInterval
    private let users: Mutex<Set<String>>

    /// A directory holding `users` (compared without case), answering after `latency` on `scheduler`.
    public init(users: Set<String>, latency: RxTimeInterval, scheduler: Scheduler) {
        self.users = Mutex(Set(users.map { $0.lowercased() }))
        self.latency = latency
        self.scheduler = scheduler
    }

    public func usernameAvailable(_ username: String) -> Single<Bool> {
        Single.deferred { [self] in .just(users.withLock { !$0.contains(username.lowercased()) }) }
            .delay(latency, scheduler: scheduler)
    }

    public func signUp(_ username: String, password: String) -> Single<Bool> {
        Single.deferred { [self] in .just(users.withLock { $0.insert(username.lowercased()).inserted }) }
            .delay(latency, scheduler: scheduler)
    }
}

extension InMemorySignUpService: Sendable where Scheduler: Sendable {}
