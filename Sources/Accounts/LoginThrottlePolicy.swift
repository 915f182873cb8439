/// How failed logins slow down the next attempt for one key (an account from one address,
/// an account from anywhere, or one address): the first `freeFailures` cost nothing, then
/// each further attempt must wait `baseDelay` after the last failure, doubling per failure
/// up to `maxDelay`.
///
/// Failures fade: every `decayInterval` without a failure forgets one, and all are
/// forgotten `forgetAfter` after the last. So someone who waits out each delay and tries
/// again does not keep the count up: one wrong attempt every 15 minutes lets it fall.
///
/// Pure arithmetic on seconds, so the windows are unit-tested without clocks.
public struct LoginThrottlePolicy: Sendable, Equatable {
    /// Failures allowed before any wait.
    public var freeFailures: Int
    /// The first wait, in seconds.
    public var baseDelay: Double
    /// The longest wait, in seconds.
    public var maxDelay: Double
    /// Seconds without a failure that forget one of them.
    public var decayInterval: Double
    /// Seconds after the last failure when the count starts again from zero; counters
    /// older than this are deleted.
    public var forgetAfter: Double

    /// A policy with these windows.
    public init(freeFailures: Int, baseDelay: Double, maxDelay: Double, decayInterval: Double, forgetAfter: Double) {
        self.freeFailures = freeFailures
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.decayInterval = decayInterval
        self.forgetAfter = forgetAfter
    }

    /// Per account and client address, the first count: three tries, then 2 s, 4 s, 8 s, …
    /// up to 15 minutes; a failure fades after 5 minutes.
    public static let perAccountAndAddress = LoginThrottlePolicy(
        freeFailures: 3, baseDelay: 2, maxDelay: 900, decayInterval: 300, forgetAfter: 3600)
    /// Per account from every address (a guess spread over many addresses): more tries, the
    /// same growth. It never holds back an address with no failures of its own for the account.
    public static let perAccount = LoginThrottlePolicy(
        freeFailures: 10, baseDelay: 2, maxDelay: 900, decayInterval: 300, forgetAfter: 3600)
    /// Per client address across accounts (one address trying many names): ten tries
    /// (people share addresses), then the same growth. It never holds back an account that
    /// logged in from that address before.
    public static let perAddress = LoginThrottlePolicy(
        freeFailures: 10, baseDelay: 2, maxDelay: 900, decayInterval: 300, forgetAfter: 3600)

    /// The failures that still count at `now`.
    public func activeFailures(_ failures: Int, lastFailure: Double, now: Double) -> Int {
        let quiet = now - lastFailure
        guard quiet < forgetAfter else { return 0 }
        guard quiet > 0, decayInterval > 0 else { return failures }
        let faded = quiet / decayInterval
        return faded >= Double(failures) ? 0 : failures - Int(faded)
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
