/// How failed logins slow down the next attempt for one key (a username or a client
/// address): the first `freeFailures` cost nothing, then each further attempt must wait
/// `baseDelay` after the last failure, doubling per failure up to `maxDelay`; failures
/// older than `forgetAfter` are forgotten.
///
/// Pure arithmetic on seconds, so the windows are unit-tested without clocks.
public struct LoginThrottlePolicy: Sendable, Equatable {
    /// Failures allowed before any wait.
    public var freeFailures: Int
    /// The first wait, in seconds.
    public var baseDelay: Double
    /// The longest wait, in seconds.
    public var maxDelay: Double
    /// Seconds after the last failure when the count starts again from zero.
    public var forgetAfter: Double

    /// A policy with these windows.
    public init(freeFailures: Int, baseDelay: Double, maxDelay: Double, forgetAfter: Double) {
        self.freeFailures = freeFailures
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.forgetAfter = forgetAfter
    }

    /// Per username: three tries, then 2 s, 4 s, 8 s, … up to 15 minutes.
    public static let perUsername = LoginThrottlePolicy(freeFailures: 3, baseDelay: 2, maxDelay: 900, forgetAfter: 3600)
    /// Per client address: more tries (people share addresses), then the same growth.
    public static let perAddress = LoginThrottlePolicy(freeFailures: 10, baseDelay: 2, maxDelay: 900, forgetAfter: 3600)

    /// The failures that still count at `now` (0 once forgotten).
    public func activeFailures(_ failures: Int, lastFailure: Double, now: Double) -> Int {
        now - lastFailure >= forgetAfter ? 0 : failures
    }

    /// The delay after `failures` failures (0 while they are free).
    public func delay(afterFailures failures: Int) -> Double {
        guard failures >= freeFailures else { return 0 }
        let doublings = min(failures - freeFailures, 62)
        return min(maxDelay, baseDelay * Double(1 << doublings))
    }

    /// Seconds still to wait at `now` before another attempt (0: go ahead).
    public func wait(failures: Int, lastFailure: Double, now: Double) -> Double {
        let active = activeFailures(failures, lastFailure: lastFailure, now: now)
        return max(0, lastFailure + delay(afterFailures: active) - now)
    }
}
