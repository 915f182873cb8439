import XCTest
@testable import Sessions

final class ClientAddressTests: XCTestCase {
    func testAnUntrustedPeersHeaderIsIgnored() {
        XCTAssertEqual(ClientAddress.resolve(peer: "198.51.100.7", forwardedFor: ["203.0.113.1"], trustedProxies: []), "198.51.100.7")
        XCTAssertEqual(ClientAddress.resolve(peer: "198.51.100.7", forwardedFor: ["203.0.113.1"], trustedProxies: ["127.0.0.1"]),
                       "198.51.100.7")
    }

    func testATrustedProxyNamesTheClientItSaw() {
        XCTAssertEqual(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["203.0.113.1"], trustedProxies: ["127.0.0.1"]),
                       "203.0.113.1")
    }

    func testOnlyTheEntriesAddedByTrustedProxiesAreBelieved() {
        // The client wrote "1.1.1.1" itself; the trusted proxy appended the address it saw.
        XCTAssertEqual(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["1.1.1.1, 203.0.113.1"], trustedProxies: ["127.0.0.1"]),
                       "203.0.113.1")
        // Two proxies in a row, and the list split over two headers.
        XCTAssertEqual(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["1.1.1.1, 203.0.113.1", " 10.0.0.2 "],
                                             trustedProxies: ["127.0.0.1", "10.0.0.2"]),
                       "203.0.113.1")
    }

    func testWithoutAHeaderOrWithOnlyProxiesTheLastKnownHopCounts() {
        XCTAssertEqual(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: [], trustedProxies: ["127.0.0.1"]), "127.0.0.1")
        XCTAssertEqual(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: ["10.0.0.2"], trustedProxies: ["127.0.0.1", "10.0.0.2"]),
                       "10.0.0.2")
        XCTAssertEqual(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: [" , "], trustedProxies: ["127.0.0.1"]), "127.0.0.1")
    }
}
