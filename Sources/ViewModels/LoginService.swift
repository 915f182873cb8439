import Dispatch
import Rx

/// Answers one login attempt: `true` for success, `false` for failure, as one element.
public protocol LoginService {
    /// Starts a login request; disposing the subscription cancels it.
    func login() -> Observable<Bool>
}

/// The seed's simulated login request: `true` after a delay on `MainScheduler.instance`.
///
/// With its defaults, `login()` is exactly the seed's line,
/// `Observable.just(true).delay(.seconds(2), scheduler: MainScheduler.instance)`.
public struct SimulatedLoginService: LoginService {
    /// How long the simulated request takes (the seed: two seconds).
    public var delay: RxTimeInterval
    /// Where the delay runs (the seed: `MainScheduler.instance`; tests: a `TestScheduler`).
    public var scheduler: any SchedulerType

    /// The seed's simulation, with the delay and scheduler replaceable.
    public init(delay: RxTimeInterval = .seconds(2), scheduler: any SchedulerType = MainScheduler.instance) {
        self.delay = delay
        self.scheduler = scheduler
    }

    /// `true` after `delay`.
    public func login() -> Observable<Bool> {
        Observable.just(true).delay(delay, scheduler: scheduler)
    }
}
