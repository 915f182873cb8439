/// A token-bucket limit: `burst` events at once, refilled at `perSecond`.
public struct RateLimit: Sendable, Equatable {
    /// Sustained events per second.
    public var perSecond: Double
    /// Events allowed at once after a quiet period.
    public var burst: Int

    /// A limit of `perSecond` sustained with bursts of `burst`.
    public init(perSecond: Double, burst: Int) {
        precondition(perSecond > 0 && burst > 0, "a rate limit needs a positive rate and burst")
        self.perSecond = perSecond
        self.burst = burst
    }
}

/// The state of one `RateLimit` for one session. Time is in nanoseconds of a
/// monotonic clock; the bucket starts full. The limit itself is shared (the endpoint's
/// configuration) and given to each `take`, so a session's bucket is 16 bytes
/// (`SessionsLayoutTests`).
struct TokenBucket {
    private var tokens: Double
    private var lastRefill: UInt64

    init(_ limit: RateLimit, now: UInt64) {
        tokens = Double(limit.burst)
        lastRefill = now
    }

    /// Takes one token of `limit` (the one the bucket was made for) if there is one; a
    /// refused event costs nothing.
    mutating func take(now: UInt64, limit: RateLimit) -> Bool {
        if now > lastRefill {
            tokens = min(Double(limit.burst), tokens + Double(now - lastRefill) * (limit.perSecond / 1_000_000_000))
            lastRefill = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
