import Dispatch
import HTTPServer
import RxSwift

/// Settings of every session; the defaults are the production values.
public struct SessionConfiguration: Sendable {
    /// Messages per session: a person typing sends a few per second, a page that
    /// (re)connects sends one per field at once. `nil`: no limit (benchmarks).
    public var messageLimit: RateLimit? = RateLimit(perSecond: 100, burst: 200)
    /// Peers whose `X-Forwarded-For` header is believed (the load balancers in front):
    /// IP addresses and CIDR ranges.
    public var trustedProxies = TrustedProxies()
    /// The token that opens sessions of `.adminToken` view models (the dashboard); `nil`
    /// leaves those endpoints out altogether.
    public var adminToken: String?

    /// Finds who an upgrade is from (a session cookie or bearer token); nil: everyone is
    /// anonymous and `.signedIn` view models refuse every upgrade.
    public var identify: SessionIdentifier?
    /// Where signed-in sessions are listed for a log out to find them.
    public var signedInSessions = SignedInSessions()
    /// Writes every session of a recorded view model to its own file (`--record`); nil: nothing
    /// is recorded, and a session pays one nil check at its open for it.
    public var recorder: SessionRecorder?

    /// The production defaults.
    public init() {}
}

extension Duration {
    /// The same span as Rx's time interval (nanosecond precision; beyond a million
    /// seconds, whole seconds).
    public var rxTimeInterval: RxTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds < 1_000_000 else { return .seconds(Int(clamping: seconds)) }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
