import XCTest
import Accounts

final class LoginThrottlePolicyTests: XCTestCase {
    let policy = LoginThrottlePolicy(freeFailures: 3, baseDelay: 2, maxDelay: 60, forgetAfter: 3600)

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

    func testTheDefaultsAreStricterPerUsernameThanPerAddress() {
        XCTAssertEqual(LoginThrottlePolicy.perUsername.freeFailures, 3)
        XCTAssertGreaterThan(LoginThrottlePolicy.perAddress.freeFailures, LoginThrottlePolicy.perUsername.freeFailures)
        XCTAssertEqual(LoginThrottlePolicy.perUsername.delay(afterFailures: 3), 2)
    }
}
