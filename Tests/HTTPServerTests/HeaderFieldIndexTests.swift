@testable import HTTPServer
import XCTest

/// The common names recognised once per field (`CommonHeaderName.classify`) and the index a
/// head keeps of them (`HeaderFieldIndex`): every look-up through the index must answer what
/// a scan of the fields comparing names without case answers.
final class HeaderFieldIndexTests: XCTestCase {
    private func classify(_ name: String) -> (name: CommonHeaderName, match: CommonHeaderName.Match)? {
        Array(name.utf8).withUnsafeBufferPointer { CommonHeaderName.classify($0) }
    }

    private func string(_ bytes: StaticString) -> String {
        String(decoding: UnsafeRawBufferPointer(start: bytes.utf8Start, count: bytes.utf8CodeUnitCount), as: UTF8.self)
    }

    func testTheLiteralsAreTheirBytes() {
        for name in CommonHeaderName.allCases {
            XCTAssertEqual(name.canonicalString, string(name.canonical))
            XCTAssertEqual(name.lowercasedString, string(name.lowercased))
            XCTAssertEqual(name.lowercasedString, name.canonicalString.lowercased())
        }
        XCTAssertLessThanOrEqual(Int(CommonHeaderName.indexedCount), 16, "HeaderFieldIndex has 16 slots")
    }

    func testEveryCommonNameIsRecognisedInAnyCase() {
        for name in CommonHeaderName.allCases {
            let canonical = name.canonicalString
            XCTAssertEqual(classify(canonical)?.name, name)
            XCTAssertEqual(classify(canonical)?.match, .canonical, canonical)
            XCTAssertEqual(classify(canonical.lowercased())?.match, .lowercase, canonical)
            XCTAssertEqual(classify(canonical.uppercased())?.name, name)
            XCTAssertEqual(classify(canonical.uppercased())?.match, .folded, canonical)
            // Every other letter's case flipped.
            let mixed = String(canonical.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : Character($0.element.lowercased()) })
            XCTAssertEqual(classify(mixed)?.name, name, mixed)
            XCTAssertEqual(CommonHeaderName.classify(mixed), name)
        }
    }

    /// One byte changed at any place to any value but the same letter in the other case is
    /// another name: no fold maps "-" (or any non-letter) onto something else.
    func testOneByteOffIsNotTheName() {
        for name in CommonHeaderName.allCases {
            let bytes = Array(name.canonicalString.utf8)
            for position in bytes.indices {
                for value in 0...255 {
                    var changed = bytes
                    changed[position] = UInt8(value)
                    let isSameLetter = UInt8(value) | 0x20 == bytes[position] | 0x20 && bytes[position] | 0x20 >= UInt8(ascii: "a")
                        && bytes[position] | 0x20 <= UInt8(ascii: "z")
                    if changed[position] == bytes[position] || isSameLetter { continue }
                    let found = changed.withUnsafeBufferPointer { CommonHeaderName.classify($0) }
                    XCTAssertNil(found, "\(name) with byte \(position) = \(value) was taken for \(found!.name)")
                }
            }
        }
    }

    func testNamesOfTheSameLengthAreToldApart() {
        for (sent, expected) in [
            ("Connection", CommonHeaderName.connection), ("User-Agent", .userAgent), ("If-None-Match", .ifNoneMatch),
            ("Cache-Control", .cacheControl), ("X-Forwarded-For", .xForwardedFor), ("Accept-Encoding", .acceptEncoding),
            ("Accept-Language", .acceptLanguage), ("Sec-WebSocket-Key", .secWebSocketKey), ("Transfer-Encoding", .transferEncoding),
            ("If-Modified-Since", .ifModifiedSince), ("Origin", .origin), ("Accept", .accept), ("Pragma", .pragma), ("Cookie", .cookie),
        ] {
            XCTAssertEqual(CommonHeaderName.classify(sent), expected, sent)
        }
        for other in ["Hosts", "Hos", "Origim", "Refere", "X-Forwarded-Fox", "Sec-WebSocket-Kez", "Sec_WebSocket_Key",
                      "Sec-WebSocket-Protocol", "Keep-Alive", "Content-Type", "", "h"] {
            XCTAssertNil(CommonHeaderName.classify(other), other)
        }
    }

    /// Heads of names that are, or nearly are, the indexed ones, repeated and in any case:
    /// every look-up agrees with a scan, for a head made with its fields and for one whose
    /// fields were changed afterwards.
    func testLookUpsAgreeWithAScan() {
        var generator = SystemRandomNumberGenerator()
        let names = CommonHeaderName.allCases.flatMap { [$0.canonicalString, $0.lowercasedString, $0.canonicalString.uppercased()] }
            + ["Hosts", "Origim", "X-Other", "Sec-WebSocket-Kez"]
        for round in 0..<300 {
            let fields = (0..<Int.random(in: 0...12, using: &generator)).map { index in
                (name: names.randomElement(using: &generator)!, value: "v\(round).\(index)")
            }
            var head = HTTPRequestHead(method: "GET", target: "/", headers: fields)
            check(head, against: fields)
            let more = [(name: names.randomElement(using: &generator)!, value: "added")]
            head.headers += more
            check(head, against: fields + more)
            head.headers.removeFirst(min(2, head.headers.count))
            check(head, against: Array((fields + more).dropFirst(2)))
        }
    }

    /// A slot holds positions up to 65,534: a common name further on leaves every look-up to
    /// a scan, which answers the same.
    func testHeadsWithMoreFieldsThanASlotHoldsAreScanned() {
        for late in [65_534, 65_535] {
            var fields = (0...late).map { (name: "X-Field-\($0)", value: "v\($0)") }
            fields[3] = (name: "Origin", value: "early")
            fields[late] = (name: "origin", value: "late")
            fields[late - 1] = (name: "Sec-WebSocket-Key", value: "key")
            let head = HTTPRequestHead(method: "GET", target: "/", headers: fields)
            XCTAssertEqual(head.values(of: .origin), ["early", "late"])
            XCTAssertEqual(head.field(.origin).count, 2)
            XCTAssertEqual(head.field(.secWebSocketKey).first, "key")
            XCTAssertEqual(head.field(.host).count, 0)
            XCTAssertEqual(head.headers(named: "ORIGIN"), ["early", "late"])
        }
    }

    private func check(_ head: HTTPRequestHead, against fields: [(name: String, value: String)], line: UInt = #line) {
        for name in CommonHeaderName.allCases where name.rawValue < CommonHeaderName.indexedCount {
            let matching = fields.filter { $0.name.lowercased() == name.lowercasedString }.map(\.value)
            let field = head.field(name)
            XCTAssertEqual(field.count, min(matching.count, 2), "\(name) in \(fields)", line: line)
            XCTAssertEqual(field.first, matching.first, "\(name) in \(fields)", line: line)
            XCTAssertEqual(head.values(of: name), matching, line: line)
            XCTAssertEqual(head.headers(named: name.canonicalString.uppercased()), matching, line: line)
            XCTAssertEqual(head.header(name.lowercasedString), matching.first, line: line)
            XCTAssertEqual(head.containsField(name) { $0 == matching.last }, !matching.isEmpty, line: line)
        }
    }

    /// The parser's index, made as it reads the names: duplicates in other cases count, a
    /// name one letter longer does not.
    func testTheParsersIndexCountsDuplicatesInAnyCase() throws {
        let bytes = Array(("GET /ws HTTP/1.1\r\nHost: h\r\nsec-websocket-key: first\r\nSec-WebSocket-Keys: no\r\n"
            + "SEC-WEBSOCKET-KEY: second\r\nOrigin: http://h\r\nUpgrade: websocket").utf8)
        let head = try HTTPRequestParser.parse(bytes[...]).get()
        XCTAssertEqual(head.field(.secWebSocketKey).count, 2)
        XCTAssertEqual(head.field(.secWebSocketKey).first, "first")
        XCTAssertEqual(head.values(of: .secWebSocketKey), ["first", "second"])
        XCTAssertEqual(head.field(.origin).count, 1)
        XCTAssertEqual(head.field(.origin).first, "http://h")
        XCTAssertEqual(head.field(.secWebSocketVersion).count, 0)
        XCTAssertNil(head.field(.secWebSocketVersion).first)
        XCTAssertEqual(head.host, "h")
        XCTAssertEqual(head.headers.map(\.name), ["Host", "sec-websocket-key", "Sec-WebSocket-Keys", "SEC-WEBSOCKET-KEY", "Origin", "Upgrade"])
        // The head made from the same fields has the same index.
        let rebuilt = HTTPRequestHead(method: head.method, target: head.target, headers: head.headers)
        for name in CommonHeaderName.allCases where name.rawValue < CommonHeaderName.indexedCount {
            XCTAssertEqual(rebuilt.field(name).count, head.field(name).count, "\(name)")
            XCTAssertEqual(rebuilt.field(name).first, head.field(name).first, "\(name)")
        }
    }

    /// The upgrade's refusals read the parser's index: repeated keys, versions or origins in
    /// other cases are refused as before.
    func testUpgradesOfParsedHeadsRefuseDuplicates() {
        func status(_ extra: String) -> Int {
            let bytes = Array(("GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13" + extra).utf8)
            guard case .success(let head) = HTTPRequestParser.parse(bytes[...]) else { return -1 }
            let policy = HostPolicy(names: ["localhost"], scheme: "http", extraOrigins: [])
            switch WebSocketUpgrade.evaluate(head, hostPolicy: policy) {
            case .accept: return 101
            case .refuse(let response): return response.status
            }
        }
        XCTAssertEqual(status(""), 101)
        XCTAssertEqual(status("\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ=="), 400)
        XCTAssertEqual(status("\r\nSEC-WEBSOCKET-VERSION: 13"), 400)
        XCTAssertEqual(status("\r\nOrigin: http://localhost\r\norigin: http://localhost"), 403)
        XCTAssertEqual(status("\r\nORIGIN: http://localhost"), 101)
        XCTAssertEqual(status("\r\nOrigin: http://elsewhere"), 403)
        XCTAssertEqual(status("\r\nSec-WebSocket-Keys: x"), 101)
    }
}
