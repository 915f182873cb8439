@testable import HTTPServer
import XCTest

/// Feeds `text` to a fresh decoder (optionally byte by byte) and collects every output.
private func decode(_ text: String, limits: HTTPRequestDecoder.Limits = .init(), byteByByte: Bool = false) -> [HTTPRequestDecoder.Output] {
    decode(Array(text.utf8), limits: limits, byteByByte: byteByByte)
}

private func decode(_ bytes: [UInt8], limits: HTTPRequestDecoder.Limits = .init(), byteByByte: Bool = false) -> [HTTPRequestDecoder.Output] {
    var decoder = HTTPRequestDecoder(limits: limits)
    var outputs: [HTTPRequestDecoder.Output] = []
    let pieces: [ArraySlice<UInt8>] = byteByByte ? bytes.indices.map { bytes[$0...$0] } : [bytes[...]]
    for piece in pieces {
        piece.withUnsafeBytes { decoder.append($0) }
        while let output = decoder.next() { outputs.append(output) }
    }
    return outputs
}

private func status(_ text: String) -> Int? {
    guard case .failure(let error)? = decode(text).first else { return nil }
    return error.status
}

final class HTTPRequestDecoderTests: XCTestCase {
    func testParsesRequestLineHeadersAndQuery() throws {
        let outputs = decode("GET /a/b.css?x=1 HTTP/1.1\r\nHost: example\r\nX-Thing:  spaced value \t\r\nAccept: */*\r\n\r\n")
        guard case .head(let head)? = outputs.first else { return XCTFail("\(outputs)") }
        XCTAssertEqual(outputs.count, 1)
        XCTAssertEqual(head.method, "GET")
        XCTAssertEqual(head.path, "/a/b.css")
        XCTAssertEqual(head.query, "x=1")
        XCTAssertEqual(head.version.major, 1)
        XCTAssertEqual(head.version.minor, 1)
        XCTAssertEqual(head.header("x-thing"), "spaced value")
        XCTAssertEqual(head.headers.count, 3)
        XCTAssertTrue(head.keepAlive)
        XCTAssertEqual(head.body, .none)
    }

    func testByteByByteInputGivesTheSameHeads() {
        let text = "GET / HTTP/1.1\r\nHost: h\r\n\r\nHEAD /x HTTP/1.0\r\n\r\n"
        XCTAssertEqual(decode(text, byteByByte: true), decode(text))
        XCTAssertEqual(decode(text).count, 2)
    }

    func testPipelinedRequestsAndSkippedBodies() {
        let outputs = decode("GET /1 HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET /2 HTTP/1.1\r\nHost: h\r\n\r\n")
        let paths = outputs.compactMap { output -> String? in
            if case .head(let head) = output { return head.path }
            return nil
        }
        XCTAssertEqual(paths, ["/1", "/2"])
    }

    func testLeadingEmptyLinesAreIgnored() {
        guard case .head(let head)? = decode("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n").first else { return XCTFail() }
        XCTAssertEqual(head.path, "/")
    }

    func testKeepAliveRules() {
        func head(_ text: String) -> HTTPRequestHead? {
            if case .head(let head)? = decode(text).first { return head }
            return nil
        }
        XCTAssertEqual(head("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")?.keepAlive, false)
        XCTAssertEqual(head("GET / HTTP/1.0\r\n\r\n")?.keepAlive, false)
        XCTAssertEqual(head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")?.keepAlive, true)
    }

    func testAbsoluteFormTargetIsReducedToItsPath() {
        guard case .head(let head)? = decode("GET http://example.com/a?b HTTP/1.1\r\nHost: example.com\r\n\r\n").first else {
            return XCTFail()
        }
        XCTAssertEqual(head.target, "/a?b")
    }

    func testAnAbsoluteFormTargetKeepsItsAuthorityAsTheHost() {
        guard case .head(let head)? = decode("GET http://evil.example:81/a?b HTTP/1.1\r\nHost: localhost\r\n\r\n").first else {
            return XCTFail()
        }
        XCTAssertEqual(head.authority, "evil.example:81")
        XCTAssertEqual(head.host, "evil.example:81", "the authority overrides Host (RFC 9112 §3.2.2)")
        guard case .head(let bare)? = decode("GET http://example.com?q HTTP/1.0\r\n\r\n").first else { return XCTFail() }
        XCTAssertEqual(bare.target, "/?q")
        XCTAssertEqual(bare.host, "example.com")
        guard case .head(let origin)? = decode("GET / HTTP/1.1\r\nHost: h:8080\r\n\r\n").first else { return XCTFail() }
        XCTAssertNil(origin.authority)
        XCTAssertEqual(origin.host, "h:8080")
        for text in ["GET http://user@evil.example/ HTTP/1.1\r\nHost: h\r\n\r\n", "GET http:///a HTTP/1.1\r\nHost: h\r\n\r\n",
                     "GET http://h:99999/ HTTP/1.1\r\nHost: h\r\n\r\n"] {
            XCTAssertEqual(status(text), 400, text.debugDescription)
        }
    }

    func testMoreThanOneHostIs400InEveryVersion() {
        XCTAssertEqual(status("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.0\r\nHost: a\r\nhost: a\r\n\r\n"), 400, "even the same twice")
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: a\r\nHOST: b\r\n\r\n"), 400)
    }

    func testAHostPortOutside1To65535Is400() {
        for port in ["0", "65536", "99999", "8o", "-1", "", "000000"] {
            XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n"), 400, port)
        }
        for port in ["1", "80", "65535", "08080"] {
            guard case .head? = decode("GET / HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n").first else { return XCTFail(port) }
        }
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: [::1]:70000\r\n\r\n"), 400)
        guard case .head? = decode("GET / HTTP/1.1\r\nHost: \r\n\r\n").first else { return XCTFail("an empty Host is allowed") }
    }

    func testAsteriskFormOnlyForOptions() {
        guard case .head(let head)? = decode("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n").first else { return XCTFail() }
        XCTAssertEqual(head.target, "*")
        XCTAssertEqual(status("GET * HTTP/1.1\r\nHost: h\r\n\r\n"), 400)
    }

    func testMalformedRequestLinesAre400() {
        for text in [
            "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",          // two spaces
            "GET /\r\nHost: h\r\n\r\n",                    // no version (HTTP/0.9 style)
            "GET / HTTP/1.1 extra\r\nHost: h\r\n\r\n",     // four parts
            "G(T / HTTP/1.1\r\nHost: h\r\n\r\n",           // bad method token
            "GET example.com HTTP/1.1\r\nHost: h\r\n\r\n", // not origin-form
            "GET /caf\u{e9} HTTP/1.1\r\nHost: h\r\n\r\n",  // non-ASCII target
            "GET / HTTP/1\r\nHost: h\r\n\r\n",
            "GET / http/1.1\r\nHost: h\r\n\r\n",
            "GET / HTTP/1.1x\r\nHost: h\r\n\r\n",
            " GET / HTTP/1.1\r\nHost: h\r\n\r\n",
        ] {
            XCTAssertEqual(status(text), 400, text.debugDescription)
        }
    }

    func testUnsupportedVersionsAre505() {
        XCTAssertEqual(status("GET / HTTP/2.0\r\nHost: h\r\n\r\n"), 505)
        XCTAssertEqual(status("GET / HTTP/0.9\r\nHost: h\r\n\r\n"), 505)
        guard case .head(let head)? = decode("GET / HTTP/1.7\r\nHost: h\r\n\r\n").first else { return XCTFail() }
        XCTAssertEqual(head.version.minor, 1, "a later 1.x is served as 1.1")
    }

    func testMalformedHeadersAre400() {
        for text in [
            "GET / HTTP/1.1\r\nHost : h\r\n\r\n",              // whitespace before colon
            "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n",    // obs-fold
            "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\n: empty-name\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nBad[Name]: v\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\nX: y\r\n\r\n",          // bare LF
            "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n",          // bare CR
            "GET / HTTP/1.1\r\nHost: h\u{0}\r\n\r\n",           // NUL
            "GET / HTTP/1.1\r\nHost: h\u{1b}[31m\r\n\r\n",      // escape
            "GET / HTTP/1.1\r\n\r\n",                           // no Host
            "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",     // two Hosts
        ] {
            XCTAssertEqual(status(text), 400, text.debugDescription)
        }
    }

    func testBareLFFailsBeforeTheHeadEnds() {
        // No terminator yet: a strict decoder refuses at the bad byte instead of waiting.
        XCTAssertEqual(decode("GET / HTTP/1.1\nHost").first, .failure(.badRequest("bare LF")))
    }

    func testBodyFramingErrors() {
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n"), 400)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"), 400)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n"), 400)
        XCTAssertEqual(status("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"), 400)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1000000\r\n\r\n"), 413)
        XCTAssertNil(decode("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\n").first, "waits for its short body")
        guard case .head(let head)? = decode("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\nabc").first else {
            return XCTFail()
        }
        XCTAssertEqual(head.body, .contentLength(3))
    }

    func testAShortBodyIsKeptForTheRouteAndALongOneSkipped() {
        var decoder = HTTPRequestDecoder()
        let requests = "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhel"
        Array(requests.utf8).withUnsafeBytes { decoder.append($0) }
        XCTAssertNil(decoder.next(), "the head waits for its body")
        XCTAssertTrue(decoder.hasPartialInput)
        let rest = "lo" + "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "x", count: 5000)
            + "GET /c HTTP/1.1\r\nHost: h\r\n\r\n"
        Array(rest.utf8).withUnsafeBytes { decoder.append($0) }
        guard case .head(let first)? = decoder.next() else { return XCTFail() }
        XCTAssertEqual(first.path, "/a")
        XCTAssertEqual(decoder.body, Array("hello".utf8))
        guard case .head(let second)? = decoder.next() else { return XCTFail() }
        XCTAssertEqual(second.path, "/b")
        XCTAssertEqual(decoder.body, [], "longer than maxKeptBodySize: skipped, not kept")
        guard case .head(let third)? = decoder.next() else { return XCTFail() }
        XCTAssertEqual(third.path, "/c")
        XCTAssertEqual(decoder.body, [])
        XCTAssertFalse(decoder.hasPartialInput)
    }

    func testChunkedBodyStopsTheDecoder() {
        var decoder = HTTPRequestDecoder()
        Array("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n".utf8).withUnsafeBytes { decoder.append($0) }
        guard case .head(let head)? = decoder.next() else { return XCTFail() }
        XCTAssertEqual(head.body, .chunked)
        XCTAssertTrue(decoder.isStopped)
        XCTAssertNil(decoder.next())
    }

    func testOversizedHeadIs431WithOrWithoutTerminator() {
        let limits = HTTPRequestDecoder.Limits(maxHeadSize: 16 * 1024)
        let big = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 17 * 1024)
        XCTAssertEqual(decode(big, limits: limits).first, .failure(.headTooLarge))
        XCTAssertEqual(decode(big + "\r\n\r\n", limits: limits).first, .failure(.headTooLarge))
        let fits = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 15 * 1024) + "\r\n\r\n"
        if case .head = decode(fits, limits: limits).first {} else { XCTFail("a 15 KiB head is fine") }
    }

    /// The end-of-head scan skips to the next control byte sixteen (near the end, eight)
    /// bytes at a time: a control byte at any place is still refused, and the head's end is
    /// found at any alignment.
    func testControlBytesAtAnyPlaceAndTheEndAtAnyAlignment() {
        let head = Array("GET /some/path HTTP/1.1\r\nHost: example.org\r\nX-Long-Header-Name: a longer value\r\n\r\n".utf8)
        for byte: UInt8 in [0x00, 0x01, 0x0A, 0x0D, 0x1B, 0x7F] {
            for place in 0..<(head.count - 4) {
                var bytes = head
                bytes.insert(byte, at: place)
                guard case .failure(let error)? = decode(bytes).first else { return XCTFail("byte \(byte) at \(place)") }
                XCTAssertEqual(error.status, 400, "byte \(byte) at \(place)")
            }
        }
        for padding in 0..<40 {
            let text = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "v", count: padding) + "\r\n\r\nGET"
            guard case .head(let request)? = decode(text).first else { return XCTFail("padding \(padding)") }
            XCTAssertEqual(request.header("x"), String(repeating: "v", count: padding))
        }
    }

    func testTooManyHeadersIs431() {
        let headers = (0..<101).map { "X-\($0): v\r\n" }.joined()
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\n" + headers + "\r\n"), 431)
    }

    func testTakeRemainingBytesReturnsWhatFollowsTheHead() {
        var decoder = HTTPRequestDecoder()
        Array("GET /ws HTTP/1.1\r\nHost: h\r\n\r\n\u{81}\u{80}".utf8).withUnsafeBytes { decoder.append($0) }
        guard case .head? = decoder.next() else { return XCTFail() }
        XCTAssertEqual(decoder.takeRemainingBytes(), [0xC2, 0x81, 0xC2, 0x80])
    }

    /// Random bytes and random mutations of valid requests: the decoder never traps, answers
    /// only with statuses it is allowed to, and never waits for more than a head's worth of bytes.
    func testFuzzedInputIsAlwaysBoundedAndAnsweredWithAKnownStatus() {
        var generator = SplitMix64(seed: 0x5EED)
        let valid = Array("GET /index.html?q=1 HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\nContent-Length: 2\r\n\r\nhi".utf8)
        let alphabet = Array(" \r\n:/%.\\\t\0GETHP1/abcAZ09\u{7f}".utf8) + [0x80, 0xFF]
        let limits = HTTPRequestDecoder.Limits(maxHeadSize: 2048, maxHeaderCount: 20, maxBodySize: 64)
        let allowed: Set<Int> = [400, 413, 431, 505]
        var heads = 0, failures = 0
        for round in 0..<4000 {
            var input: [UInt8]
            if round % 2 == 0 {
                input = valid
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let index = Int(generator.next() % UInt64(input.count))
                    switch generator.next() % 3 {
                    case 0: input[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    case 1: input.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: index)
                    default: input.remove(at: index)
                    }
                }
            } else {
                input = (0..<Int(generator.next() % 3000)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            }
            var decoder = HTTPRequestDecoder(limits: limits)
            var offset = 0
            var outputs: [HTTPRequestDecoder.Output] = []
            while offset < input.count {
                let size = 1 + Int(generator.next() % 64)
                let piece = input[offset..<min(input.count, offset + size)]
                piece.withUnsafeBytes { decoder.append($0) }
                offset += piece.count
                while let output = decoder.next() { outputs.append(output) }
            }
            for output in outputs {
                switch output {
                case .head(let head):
                    heads += 1
                    XCTAssertTrue(head.path.hasPrefix("/"))
                case .failure(let error):
                    failures += 1
                    XCTAssertTrue(allowed.contains(error.status), "\(error)")
                }
            }
            if !decoder.isStopped {
                // Whatever is still buffered must be shorter than a head: nothing is held unbounded.
                XCTAssertFalse(input.count - (input.lastIndex(of: 0x0A) ?? 0) > limits.maxHeadSize + 64 && outputs.isEmpty,
                               "stuck on \(input.count) bytes")
            }
        }
        XCTAssertGreaterThan(heads, 100, "mutations keep some requests valid")
        XCTAssertGreaterThan(failures, 1000)
    }

    /// A head that arrives whole has its line ends noted by the decoder's scan and parsed
    /// without the parser's own check of its bytes; byte by byte, the parser checks them
    /// itself. Mutated pipelined heads give the same outputs both ways.
    func testLineEndsFromTheScanParseAsTheParserReadsThem() {
        var generator = SplitMix64(seed: 0x11AE)
        let valid = Array(("GET /ws/sum?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            + "HEAD /x HTTP/1.0\r\nA: b\r\n\r\n").utf8)
        let alphabet = Array(" \r\n:/\t\0GHTP1.aZ\u{7f}".utf8) + [0x80]
        let limits = HTTPRequestDecoder.Limits(maxHeadSize: 4096, maxHeaderCount: 5, maxBodySize: 64)
        var heads = 0
        for _ in 0..<3000 {
            var input = valid
            for _ in 0..<Int(generator.next() % 4) {
                let index = Int(generator.next() % UInt64(input.count))
                switch generator.next() % 3 {
                case 0: input[index] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: input.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: index)
                default: input.remove(at: index)
                }
            }
            let whole = decode(input, limits: limits)
            XCTAssertEqual(whole, decode(input, limits: limits, byteByByte: true), String(decoding: input, as: UTF8.self))
            heads += whole.filter { if case .head = $0 { true } else { false } }.count
        }
        XCTAssertGreaterThan(heads, 500, "mutations keep some requests valid")
    }
}

/// A small deterministic PRNG so fuzz failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
