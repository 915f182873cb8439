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

/// The state of one `RateLimit` for one session. Time is in nanoseconds of a monotonic
/// clock; the bucket starts full. The limit itself is shared (the endpoint's configuration)
/// and given to each `take`, and the bucket is kept as the one time at which it would be full
/// again (the generic cell rate algorithm: a token is `1/perSecond` seconds of that time, the
/// burst the most it may lie ahead of now), so a session's bucket is one word and the session's
/// next field shares the word after it (`SessionsLayoutTests`).
struct TokenBucket {
    /// When the bucket is full again, were nothing taken meanwhile: now or earlier means full.
    private var fullAt: UInt64

    init(_ limit: RateLimit, now: UInt64) {
        fullAt = now
    }

    /// Takes one token of `limit` (the one the bucket was made for) if there is one; a
    /// refused event costs nothing.
    mutating func take(now: UInt64, limit: RateLimit) -> Bool {
        // Clamped so that a rate of almost nothing still gives a time that adds up.
        let interval = min(1_000_000_000 / limit.perSecond, Double(UInt64.max >> 2))
        let start = max(fullAt, now)
        // Taking one more leaves at least one token: the bucket is at most `burst - 1` ahead.
        guard Double(start - now) <= Double(limit.burst - 1) * interval else { return false }
        let (next, overflow) = start.addingReportingOverflow(UInt64(interval.rounded()))
        fullAt = overflow ? .max : next
        return true
    }
}
