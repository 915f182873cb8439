import XCTest
import Accounts

final class LoginThrottlePolicyTests: XCTestCase {
    /// Without fading, to test the growth and the hard window alone.
    let policy = LoginThrottlePolicy(freeFailures: 3, baseDelay: 2, maxDelay: 60, decayInterval: 0, forgetAfter: 3600)

    func testTheFreeFailuresCostNoWait() {
        for failures in 0..<3 {
            XCTAssertEqual(policy.wait(failures: failures, lastFailure: 1000, now: 1000), 0, "\(failures) failures")
        }
    }

    func testTheWaitDoublesPerFailureFromTheBaseUpToTheCap() {
        let delays = (3...9).map { policy.delay(afterFailures: $0) }
        XCTAssertEqual(delays, [2, 4, 8, 16, 32, 60, 60])
        XCTAssertEqual(policy.delay(afterFailures: 10_000), 60, "no overflow for huge counts")
    }

    func testTheWaitCountsFromTheLastFailure() {
        XCTAssertEqual(policy.wait(failures: 4, lastFailure: 1000, now: 1000), 4)
        XCTAssertEqual(policy.wait(failures: 4, lastFailure: 1000, now: 1003), 1)
        XCTAssertEqual(policy.wait(failures: 4, lastFailure: 1000, now: 1004), 0)
        XCTAssertEqual(policy.wait(failures: 4, lastFailure: 1000, now: 1500), 0)
    }

    func testFailuresAreForgottenAfterTheWindow() {
        XCTAssertEqual(policy.activeFailures(8, lastFailure: 1000, now: 1000 + 3599), 8)
        XCTAssertEqual(policy.activeFailures(8, lastFailure: 1000, now: 1000 + 3600), 0)
        XCTAssertEqual(policy.wait(failures: 50, lastFailure: 1000, now: 1000 + 3600), 0)
    }

    func testEachQuietDecayIntervalForgetsOneFailure() {
        let fading = LoginThrottlePolicy(freeFailures: 3, baseDelay: 2, maxDelay: 900, decayInterval: 300, forgetAfter: 3600)
        XCTAssertEqual(fading.activeFailures(6, lastFailure: 1000, now: 1000 + 299), 6)
        XCTAssertEqual(fading.activeFailures(6, lastFailure: 1000, now: 1000 + 300), 5)
        XCTAssertEqual(fading.activeFailures(6, lastFailure: 1000, now: 1000 + 900), 3)
        XCTAssertEqual(fading.activeFailures(6, lastFailure: 1000, now: 1000 + 1800), 0)
    }

    func testOneWrongAttemptEveryFifteenMinutesLetsTheCountFall() {
        // The old rule (forgotten only after an hour without a failure) kept this count at
        // its height forever; now each 15-minute pause forgets three, and the attempt adds one.
        let policy = LoginThrottlePolicy.perAccountAndAddress
        var failures = 8, last = 0.0
        for round in 1...4 {
            let now = Double(round) * 900
            XCTAssertEqual(policy.wait(failures: failures, lastFailure: last, now: now), 0, "round \(round)")
            failures = policy.activeFailures(failures, lastFailure: last, now: now) + 1
            last = now
        }
        XCTAssertLessThan(failures, LoginThrottlePolicy.perAccountAndAddress.freeFailures, "the count fell to the free ones")
    }

    func testTheDefaults() {
        XCTAssertEqual(LoginThrottlePolicy.perAccountAndAddress.freeFailures, 3)
        XCTAssertGreaterThan(LoginThrottlePolicy.perAccount.freeFailures, LoginThrottlePolicy.perAccountAndAddress.freeFailures)
        XCTAssertGreaterThan(LoginThrottlePolicy.perAddress.freeFailures, LoginThrottlePolicy.perAccountAndAddress.freeFailures)
        XCTAssertEqual(LoginThrottlePolicy.perAccountAndAddress.delay(afterFailures: 3), 2)
    }
}
