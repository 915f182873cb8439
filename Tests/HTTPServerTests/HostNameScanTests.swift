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

    /// The shortcut for a listed name (`startsWithListedName`) accepts only what the whole
    /// check accepts (a name made from the header, looked up in the set), and takes the
    /// usual Host headers.
    func testTheListedNameShortcutAgreesWithTheWholeCheck() {
        let policy = HostPolicy(names: ["localhost", "127.0.0.1", "::1", "Example.com", "[broken", "a:b"], scheme: "http",
                                extraOrigins: [])
        let plain = policy.names.map { Array($0.utf8) }.filter(HostPolicy.isPlainName)
        XCTAssertEqual(Set(plain.map { String(decoding: $0, as: UTF8.self) }), ["localhost", "127.0.0.1", "[::1]", "example.com", "[a:b]"])
        let headers = ["localhost", "LocalHost:8080", "127.0.0.1", "127.0.0.1:1", "127.0.0.1:65535", "127.0.0.1:65536",
                       "127.0.0.1:0", "127.0.0.1:", "127.0.0.1:+80", "127.0.0.1:080", "127.0.0.1:123456", "127.0.0.10",
                       "127.0.0.1.", "127.0.0.1:80:90", "localhostx", "localhost x", "[::1]", "[::1]:8080", "[::1]x",
                       "[::1]:", "[::1", "EXAMPLE.COM:443", "example.co", "[broken", "[broken]", "a:b", "[a:b]", "[a:b]:1", "a", "", ":80",
                       "localhost:8\u{FF}", "localhoſt"]
        var taken = 0
        for header in headers {
            let whole = HostPolicy.name(ofHostHeader: header).map(policy.names.contains) ?? false
            var bytes = header
            let shortcut = bytes.withUTF8 { HostPolicy.startsWithListedName($0, among: HostPolicy.lengthPrefixed(plain)) }
            if shortcut {
                taken += 1
                XCTAssertTrue(whole, "the shortcut accepted \(header), which the whole check refuses")
            }
            XCTAssertEqual(bytes.withUTF8 { policy.accepts(hostBytes: $0) }, whole, header)
            XCTAssertEqual(policy.accepts(host: header), whole, header)
        }
        XCTAssertEqual(taken, 11, "the usual headers take the shortcut")
    }
}
