import Dispatch
import XCTest
@testable import Sessions

final class RateLimitTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    func testBucketStartsFullAndRefusesBeyondTheBurst() {
        let limit = RateLimit(perSecond: 2, burst: 3)
        var bucket = TokenBucket(limit, now: 0)
        XCTAssertEqual((0..<4).map { _ in bucket.take(now: 0, limit: limit) }, [true, true, true, false])
    }

    func testBucketRefillsAtTheRateAndNeverAboveTheBurst() {
        let limit = RateLimit(perSecond: 2, burst: 3)
        var bucket = TokenBucket(limit, now: 0)
        for _ in 0..<3 { _ = bucket.take(now: 0, limit: limit) }
        XCTAssertFalse(bucket.take(now: second / 2 - 1, limit: limit))
        XCTAssertTrue(bucket.take(now: second / 2, limit: limit))
        XCTAssertFalse(bucket.take(now: second / 2, limit: limit))
        // An hour of silence refills to the burst, not to 7200.
        let later = 3600 * second
        XCTAssertEqual((0..<4).map { _ in bucket.take(now: later, limit: limit) }, [true, true, true, false])
    }

    /// A sender at the limit's rate is never refused, however long it sends (a bucket that
    /// rounded its refills down would fall a token short in time); one 1 % faster is, once its
    /// burst is spent.
    func testSenderAtTheRateIsNeverRefusedAndOneFasterIsAfterItsBurst() {
        let limit = RateLimit(perSecond: 3, burst: 2)
        var atRate = TokenBucket(limit, now: 0)
        var faster = TokenBucket(limit, now: 0)
        let sends = 100_000
        let atRateResults = (0..<sends).map { atRate.take(now: UInt64($0) * second / 3, limit: limit) }
        XCTAssertEqual(atRateResults.filter { !$0 }.count, 0)
        let fasterResults = (0..<sends).map { faster.take(now: UInt64($0) * second * 100 / 303, limit: limit) }
        let firstRefusal = fasterResults.firstIndex(of: false)
        XCTAssertNotNil(firstRefusal)
        XCTAssertGreaterThan(firstRefusal ?? 0, 2, "the burst is taken first")
    }

    func testClockGoingBackwardsChangesNothing() {
        let limit = RateLimit(perSecond: 1, burst: 1)
        var bucket = TokenBucket(limit, now: 10 * second)
        XCTAssertTrue(bucket.take(now: 10 * second, limit: limit))
        XCTAssertFalse(bucket.take(now: 5 * second, limit: limit))
        XCTAssertTrue(bucket.take(now: 11 * second, limit: limit))
    }

    func testLoginDelayConvertsToRxIntervalsExactly() {
        XCTAssertEqual(Duration.milliseconds(300).rxTimeInterval, .nanoseconds(300_000_000))
        XCTAssertEqual(Duration.seconds(2).rxTimeInterval, .nanoseconds(2_000_000_000))
        XCTAssertEqual(Duration.zero.rxTimeInterval, .nanoseconds(0))
        XCTAssertEqual(Duration.seconds(Int64.max).rxTimeInterval, .seconds(Int.max))
    }
}
