import Foundation
import RxSwift
import XCTest

/// Base class of the RxCocoa tests: each test must leave `Resources.total` where it found it
/// (waiting up to 10 s for work on dispatch queues and tasks to release its resources).
class RxCocoaTestCase: XCTestCase {
    private var resourcesAtStart: Int32 = 0

    override func setUp() {
        super.setUp()
        resourcesAtStart = Resources.total
    }

    override func tearDown() {
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
struct TestError: Error, Equatable {
    let code: Int
}

let testError = TestError(code: 1)
