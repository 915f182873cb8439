import Rx

/// Settings of every session; the defaults are the production values.
public struct SessionConfiguration: Sendable {
    /// How long the simulated login request takes (the seed: 2 s).
    public var loginDelay: RxTimeInterval = .seconds(2)
    /// Messages per session: a person typing sends a few per second, a page that
    /// (re)connects sends one per field at once. `nil`: no limit (benchmarks).
    public var messageLimit: RateLimit? = RateLimit(perSecond: 100, burst: 200)
    /// Login taps per session: 10 at once, then one every 2 s. `nil`: no limit.
    public var loginTapLimit: RateLimit? = RateLimit(perSecond: 0.5, burst: 10)

    /// The production defaults.
    public init() {}

    /// The defaults with another login delay.
    public init(loginDelay: RxTimeInterval) {
        self.loginDelay = loginDelay
    }
}
