import HTTPServer
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

    func testProxiesAreAddressesAndCIDRRanges() {
        let proxies: TrustedProxies = ["127.0.0.0/8", "10.1.2.3", "fd00::/8", "::1"]
        for address in ["127.0.0.1", "127.255.0.9", "10.1.2.3", "::ffff:127.0.0.1", "fd12::1", "::1"] {
            XCTAssertTrue(proxies.contains(address), address)
        }
        for address in ["128.0.0.1", "10.1.2.4", "fe80::1", "::2", "localhost", "", "10.1.2.3:80"] {
            XCTAssertFalse(proxies.contains(address), address)
        }
        XCTAssertEqual(ClientAddress.resolve(peer: "127.0.0.5", forwardedFor: ["203.0.113.1, 10.1.2.3"], trustedProxies: proxies),
                       "203.0.113.1", "every hop in a range is passed over")
        XCTAssertNil(TrustedProxies.problem("10.0.0.0/8"))
        XCTAssertNotNil(TrustedProxies.problem("10.0.0.0/8x"))
        XCTAssertTrue(TrustedProxies(["notanip"]).isEmpty)
    }
}
