import XCTest
@testable import RxLive

/// The links logged at start can be opened as they are.
final class StartUpLinkTests: XCTestCase {
    func testIPv6AddressesAreBracketedAndEveryAddressLinksToLoopback() {
        XCTAssertEqual(linkHost("127.0.0.1"), "127.0.0.1")
        XCTAssertEqual(linkHost("localhost"), "localhost")
        XCTAssertEqual(linkHost("::1"), "[::1]")
        XCTAssertEqual(linkHost("[::1]"), "[::1]")
        XCTAssertEqual(linkHost("fe80::1"), "[fe80::1]")
        XCTAssertEqual(linkHost("0.0.0.0"), "127.0.0.1")
        XCTAssertEqual(linkHost("::"), "[::1]")
    }
}
