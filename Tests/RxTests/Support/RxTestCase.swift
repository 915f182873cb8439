import Foundation
import RxSwift
import XCTest

/// Base class of the Rx tests: each test must leave `Resources.total` where it found it.
///
/// `tearDown` waits up to 10 s for work queued on dispatch queues to finish and release
/// its resources before it checks.
class RxTestCase: XCTestCase {
    private var resourcesAtStart: Int32 = 0

    override func setUp() {
        super.setUp()
        resourcesAtStart = Resources.total
    }

    override func tearDown() {
        // Work a test started on other threads (a Task, a scheduler's timer) may let its
        // resources go a little after the test returns, later still on a loaded machine.
        let deadline = Date().addingTimeInterval(10)
        while Resources.total != resourcesAtStart && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        // Fewer than at the start is an earlier test's late release, not a leak of this one.
        XCTAssertLessThanOrEqual(Resources.total, resourcesAtStart, "Rx resources leaked by \(name)")
        super.tearDown()
    }
}

/// An error for tests, compared by its code.
struct TestError: Error, Equatable, CustomStringConvertible {
    let code: Int
    init(_ code: Int = 1) { self.code = code }
    var description: String { "TestError(\(code))" }
}

let testError = TestError(1)
let testError1 = TestError(11)
let testError2 = TestError(12)
