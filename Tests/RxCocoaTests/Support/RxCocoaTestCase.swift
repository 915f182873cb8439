import Foundation
import RxSwift
import XCTest

/// Base class of the RxCocoa tests: each test must leave `Resources.total` where it found it
/// (waiting up to two seconds for work on dispatch queues and tasks to release its resources).
class RxCocoaTestCase: XCTestCase {
    private var resourcesAtStart: Int32 = 0

    override func setUp() {
        super.setUp()
        resourcesAtStart = Resources.total
    }

    override func tearDown() {
        let deadline = Date().addingTimeInterval(2)
        while Resources.total != resourcesAtStart && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        XCTAssertEqual(Resources.total, resourcesAtStart, "Rx resources leaked by \(name)")
        super.tearDown()
    }
}

/// An error for tests, compared by its code.
struct TestError: Error, Equatable {
    let code: Int
}

let testError = TestError(code: 1)
