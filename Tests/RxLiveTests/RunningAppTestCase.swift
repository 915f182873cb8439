import XCTest
@testable import RxLive

/// A test case whose tests may run as another app (the command line reads `RxLiveApp.current`);
/// the app before is back after each test.
class RunningAppTestCase: XCTestCase {
    private var appBefore: RxLiveApp?

    /// Makes an app named `name`, with or without accounts, the running one for this test.
    func runAs(_ name: String = "rxlive", accounts: Bool) {
        if appBefore == nil { appBefore = RxLiveApp.current }
        RxLiveApp.running.withLock { $0 = RxLiveApp(name: name, abstract: "", accounts: accounts) { _ in [] } }
    }

    override func tearDown() {
        if let appBefore { RxLiveApp.running.withLock { $0 = appBefore } }
        appBefore = nil
        super.tearDown()
    }
}
