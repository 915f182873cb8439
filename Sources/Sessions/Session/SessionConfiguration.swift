import Dispatch
import RxSwift
import ViewModels

/// Settings of every session; the defaults are the production values.
public struct SessionConfiguration: Sendable {
    /// How long the simulated login request takes (the seed: 2 s).
    public var loginDelay: Duration = .seconds(2)
    /// Messages per session: a person typing sends a few per second, a page that
    /// (re)connects sends one per field at once. `nil`: no limit (benchmarks).
    public var messageLimit: RateLimit? = RateLimit(perSecond: 100, burst: 200)
    /// Login taps per session: 10 at once, then one every 2 s. `nil`: no limit.
    public var loginTapLimit: RateLimit? = RateLimit(perSecond: 0.5, burst: 10)
    /// Makes the login service of one session from its client's address. `nil`: the
    /// seed's simulation with `loginDelay`.
    public var loginService: (@Sendable (_ clientAddress: String) -> any LoginService)?
    /// Peers whose `X-Forwarded-For` header is believed (the load balancers in front):
    /// exact IP addresses.
    public var trustedProxies: Set<String> = []
    /// The token that opens sessions of `.adminToken` view models (the dashboard); `nil`
    /// leaves those endpoints out altogether.
    public var adminToken: String?

    /// The production defaults.
    public init() {}

    /// The defaults with another login delay.
    public init(loginDelay: Duration) {
        self.loginDelay = loginDelay
    }
}

extension Duration {
    /// The same span as Rx's time interval (nanosecond precision; beyond a million
    /// seconds, whole seconds).
    var rxTimeInterval: RxTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds < 1_000_000 else { return .seconds(Int(clamping: seconds)) }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
