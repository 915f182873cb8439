import RxSwift

/// The feed of a tap input declared with a limit (`WireInputs.tap(_:limit:)`): its subject
/// and the session's token bucket for that limit, together, so that a session keeps no list
/// of buckets by input (a word of every session, limited taps or not).
final class LimitedTapFeed {
    let subject = InlinePublishSubject<Void>()
    /// Full, as at the open: a bucket refills to its burst and no further, so a start at
    /// time 0 is a start at any earlier time. Touched by the session's thread only, and no
    /// access spans a call.
    @exclusivity(unchecked) private var bucket: TokenBucket

    init(limit: RateLimit) {
        bucket = TokenBucket(limit, now: 0)
    }

    /// Takes one token of `limit` (the input's, which the feed was made for) if there is one.
    func take(now: UInt64, limit: RateLimit) -> Bool {
        bucket.take(now: now, limit: limit)
    }
}
