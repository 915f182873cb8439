@testable import HTTPServer
import XCTest

/// A Host header's name read as bytes (the ASCII path) is what the Unicode path reads.
final class HostNameScanTests: XCTestCase {
    func testTheByteScanAgreesWithTheUnicodePath() {
        let headers = ["localhost", "LocalHost:8080", "127.0.0.1", "127.0.0.1:1", "127.0.0.1:65535", "127.0.0.1:65536",
                       "127.0.0.1:0", "example.com:", "example.com:+80", "example.com:080", "example.com:123456",
                       ":80", "", "[::1]", "[::1]:8080", "[::1", "[::1]x", "[::1]:", "[]", "[]:80", "a:b",
                       "Example.COM", "host:80:90", "h\tost", "exa mple.com:8 0"]
        for header in headers {
            guard let scanned = HostPolicy.asciiName(ofHostHeader: header) else {
                XCTFail("\(header) is ASCII: the byte scan reads it")
                continue
            }
            XCTAssertEqual(scanned, HostPolicy.unicodeName(ofHostHeader: header), header)
            // The parser's check, which makes no name, agrees with making it.
            XCTAssertEqual(HostPolicy.isWellFormed(hostHeader: header), scanned != nil, header)
        }
        XCTAssertEqual(HostPolicy.name(ofHostHeader: "LocalHost:8080"), "localhost")
        XCTAssertEqual(HostPolicy.name(ofHostHeader: "[::1]:8080"), "[::1]")
        XCTAssertNil(HostPolicy.name(ofHostHeader: "127.0.0.1:65536"))
    }

    func testNonASCIIHeadersTakeTheUnicodePath() {
        XCTAssertTrue(HostPolicy.asciiName(ofHostHeader: "MÜNCHEN.de") == nil)
        XCTAssertEqual(HostPolicy.name(ofHostHeader: "MÜNCHEN.de:80"), "münchen.de")
        XCTAssertTrue(HostPolicy.isWellFormed(hostHeader: "MÜNCHEN.de:80"))
        XCTAssertFalse(HostPolicy.isWellFormed(hostHeader: "MÜNCHEN.de:0"))
    }

    /// The Host remembered from an accepted request answers the next one with the same
    /// bytes; any other (refused, empty, another spelling) is checked whole, so every answer
    /// is the policy's own.
    func testARememberedHostAnswersAsThePolicy() throws {
        let policy = HostPolicy(names: ["localhost", "127.0.0.1"], scheme: "http", extraOrigins: [])
        let hosts = ["", "127.0.0.1:8080", "127.0.0.1:8080", "evil.example", "", "127.0.0.1:8080", "LOCALHOST", "localhost",
                     "localhost:0", "evil.example", "127.0.0.1:8081", "127.0.0.1:8081", "", String(repeating: "a", count: 70),
                     "127.0.0.1:8080"]
        var remembered: [UInt8] = []
        var rememberedHits = 0
        for host in hosts {
            let head = "GET / HTTP/1.1\r\nHost: \(host)"
            guard case .success(let request) = HTTPRequestParser.parse(Array(head.utf8)[...]) else {
                // A malformed Host never reaches routing.
                XCTAssertFalse(HostPolicy.isWellFormed(hostHeader: host), host)
                continue
            }
            let before = remembered
            let answer = request.hostFieldIsAccepted(by: policy, remembering: &remembered)
            XCTAssertEqual(answer, request.hostFieldIsAccepted(by: policy), host)
            if !host.isEmpty && before == Array(host.utf8) { rememberedHits += 1 }
        }
        XCTAssertEqual(rememberedHits, 3, "a repeated accepted Host is answered from memory")
    }
}
