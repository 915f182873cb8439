import Dispatch
import RxSwift

/// Answers one login attempt: `true` for success, `false` for failure, as one element.
///
/// A service that cannot answer (its database is down, the user is throttled) fails the
/// request with a `LoginServiceError`.
public protocol LoginService {
    /// Starts a login request; disposing the subscription cancels it.
    func login() -> Observable<Bool>

    /// Starts a login request for these credentials; disposing the subscription cancels it.
    /// Services that check no credentials (the MVVM login example's simulation) keep the default, `login()`.
    func login(username: String, password: String) -> Observable<Bool>
}

extension LoginService {
    /// The credential-blind request, `login()`.
    public func login(username: String, password: String) -> Observable<Bool> {
        login()
    }
}

/// Why a login request has no answer.
public enum LoginServiceError: Error, Equatable, Sendable, Codable {
    /// The service behind the login (its database) cannot be reached.
    case unavailable
    /// Too many failed attempts for this user or address; the next attempt may come after this many seconds.
    case rateLimited(retryAfter: Double)
    /// The service has no room for the request now (no failure counted); try again after this many seconds.
    case busy(retryAfter: Double)
    /// The username or password can belong to no account; says why.
    case invalidCredentials(String)
}

/// The MVVM login example's simulated request: `true` after a delay on `MainScheduler.instance`.
///
/// With its defaults, `login()` is exactly the example's line,
/// `Observable.just(true).delay(.seconds(2), scheduler: MainScheduler.instance)`.
public struct SimulatedLoginService: LoginService {
    /// How long the simulated request takes (the example: two seconds).
    public var delay: RxTimeInterval
    /// Where the delay runs (the example: `MainScheduler.instance`; tests: a `TestScheduler`).
    public var scheduler: any SchedulerType

    /// The example's simulation, with the delay and scheduler replaceable.
    public init(delay: RxTimeInterval = .seconds(2), scheduler: any SchedulerType = MainScheduler.instance) {
        self.delay = delay
        self.scheduler = scheduler
    }

    /// `true` after `delay`.
    public func login() -> Observable<Bool> {
        Observable.just(true).delay(delay, scheduler: scheduler)
    }
}
