/// A strict parser of one complete HTTP/1.1 request head (RFC 9112 §2–§6).
///
/// Input: the head's bytes up to, not including, the empty line that ends it. Lines end in
/// CRLF; bare CR or LF, control characters, whitespace before a colon, obsolete line folding,
/// bad versions, conflicting framing, a missing (HTTP/1.1) or repeated (any version) `Host`,
/// and a malformed host (a port outside 1–65535, userinfo in an absolute-form target) are all
/// refused (RFC 9112 §3.2).
public enum HTTPRequestParser {
    /// Parses `head`; `maxHeaderCount` bounds the number of header fields.
    public static func parse(_ head: ArraySlice<UInt8>, maxHeaderCount: Int = 100) -> Result<HTTPRequestHead, HTTPParseError> {
        head.withUnsafeBufferPointer { parse(bytes: $0, of: head, maxHeaderCount: maxHeaderCount) }
    }

    /// Two passes over the bytes in place: the first checks line ends and control characters
    /// and notes where each line ends, the second reads the request line and each header line
    /// by its offsets. Only the head's own strings are made (no array of lines, no split).
    private static func parse(bytes head: UnsafeBufferPointer<UInt8>, of owner: ArraySlice<UInt8>,
                              maxHeaderCount: Int) -> Result<HTTPRequestHead, HTTPParseError> {
        // Room for the ends of the request line and of as many header lines as are allowed.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(0, maxHeaderCount) + 1) { lineEnds in
            parse(bytes: head, of: owner, maxHeaderCount: maxHeaderCount, lineEnds: lineEnds)
        }
    }

    /// Parses `head`, whose line ends the decoder already found as it checked the same bytes
    /// (no control character, each CR followed by LF, no bare LF): the offset of each CR, the
    /// request line's first, `lineCount` of them noted up to `lineEnds`' capacity (which must
    /// be at least `maxHeaderCount` + 1). Spares the second check of every byte.
    static func parse(_ head: ArraySlice<UInt8>, maxHeaderCount: Int, checkedLineEnds lineEnds: UnsafeMutableBufferPointer<Int>,
                      lineCount: Int) -> Result<HTTPRequestHead, HTTPParseError> {
        head.withUnsafeBufferPointer { bytes in
            if lineCount <= lineEnds.count { lineEnds[lineCount - 1] = bytes.count }
            return parseLines(bytes: bytes, of: head, maxHeaderCount: maxHeaderCount, lineEnds: lineEnds, lineCount: lineCount)
        }
    }

    private static func parse(bytes head: UnsafeBufferPointer<UInt8>, of owner: ArraySlice<UInt8>, maxHeaderCount: Int,
                              lineEnds: UnsafeMutableBufferPointer<Int>) -> Result<HTTPRequestHead, HTTPParseError> {
        var lineCount = 1
        var index = 0
        while index < head.count {
            // Eight bytes at a time up to the next control character or DEL: most of a head;
            // the byte-by-byte checks below see only those bytes and the last few.
            if index + 8 <= head.count {
                let ordinary = ordinaryByteCount(UnsafeRawPointer(head.baseAddress! + index).loadUnaligned(as: UInt64.self))
                if ordinary > 0 {
                    index += ordinary
                    continue
                }
            }
            let byte = head[index]
            if byte == cr {
                guard index + 1 < head.count, head[index + 1] == lf else { return .failure(.badRequest("bare CR")) }
                if lineCount <= lineEnds.count { lineEnds[lineCount - 1] = index }
                lineCount += 1
                index += 2
                continue
            }
            if byte == lf { return .failure(.badRequest("bare LF")) }
            if isForbiddenControl(byte) { return .failure(.badRequest("control character")) }
            index += 1
        }
        if lineCount <= lineEnds.count { lineEnds[lineCount - 1] = head.count }
        return parseLines(bytes: head, of: owner, maxHeaderCount: maxHeaderCount, lineEnds: lineEnds, lineCount: lineCount)
    }

    /// The request line and header lines of a checked `head` (the bytes of `owner`, which the
    /// fields keep), whose `lineCount` lines end at `lineEnds` (as far as it holds them).
    private static func parseLines(bytes head: UnsafeBufferPointer<UInt8>, of owner: ArraySlice<UInt8>, maxHeaderCount: Int,
                                   lineEnds: UnsafeMutableBufferPointer<Int>, lineCount: Int) -> Result<HTTPRequestHead, HTTPParseError> {
        let requestLineEnd = lineEnds[0]
        // Fields are found by 32-bit offsets (a head is at most `maxHeadSize`, 16 KiB by default).
        guard head.count <= Int(UInt32.max) else { return .failure(.headTooLarge) }
        guard requestLineEnd > 0 else { return .failure(.badRequest("empty request line")) }
        if lineCount - 1 > maxHeaderCount { return .failure(.tooManyHeaders) }

        // method SP target SP version: exactly two spaces.
        let requestLine = UnsafeBufferPointer(rebasing: head[0..<requestLineEnd])
        guard let firstSpace = requestLine.firstIndex(of: space),
              let secondSpace = requestLine[(firstSpace + 1)...].firstIndex(of: space),
              !requestLine[(secondSpace + 1)...].contains(space) else {
            return .failure(.badRequest("request line is not method SP target SP version"))
        }
        let methodBytes = requestLine[..<firstSpace]
        let targetBytes = requestLine[(firstSpace + 1)..<secondSpace]
        let versionBytes = requestLine[(secondSpace + 1)...]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(isTokenCharacter) else { return .failure(.badRequest("bad method")) }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return .failure(.badRequest("bad target")) }
        let version: (major: Int, minor: Int)
        switch parseVersion(versionBytes) {
        case .success(let parsed): version = parsed
        case .failure(let error): return .failure(error)
        }
        let rawTarget = String(decoding: targetBytes, as: UTF8.self)
        let target: String
        let authority: String?
        // The path and query of an origin-form target, split at its first "?" in the bytes.
        var pathAndQuery: (path: String, query: String?)?
        if targetBytes.first == UInt8(ascii: "/") {
            // origin-form, the usual: the target as sent (what `originTarget` makes of it, with
            // no work on strings).
            (target, authority) = (rawTarget, nil)
            if let mark = targetBytes.firstIndex(of: UInt8(ascii: "?")) {
                pathAndQuery = (String(decoding: UnsafeBufferPointer(rebasing: requestLine[targetBytes.startIndex..<mark]), as: UTF8.self),
                                String(decoding: UnsafeBufferPointer(rebasing: requestLine[(mark + 1)..<targetBytes.endIndex]),
                                       as: UTF8.self))
            } else {
                pathAndQuery = (rawTarget, nil)
            }
        } else {
            // asterisk-form (RFC 9112 §3.2.4) exists only for OPTIONS.
            let isAsterisk = rawTarget == "*" && methodBytes.elementsEqual("OPTIONS".utf8)
            guard let parsed = isAsterisk ? (rawTarget, nil) : originTarget(rawTarget) else {
                return .failure(.badRequest("target is not origin-, absolute- or asterisk-form"))
            }
            (target, authority) = parsed
        }
        if let authority, authority.contains("@") || !HostPolicy.isWellFormed(hostHeader: authority) {
            return .failure(.badRequest("bad authority in the target"))
        }

        // The fields' bytes are kept as they came, from the first header line on; each field is
        // a span of offsets into them, and becomes strings only when looked up.
        let fieldsStart = min(requestLineEnd + 2, head.count)
        var spans: [HeaderFields.Span] = []
        spans.reserveCapacity(lineCount - 1)
        var fieldIndex = HeaderFieldIndex()
        var lineStart = requestLineEnd + 2
        // The first Host's value, checked in place below.
        var hostValue: UnsafeBufferPointer<UInt8>?
        for lineNumber in 1..<lineCount {
            let lineEnd = lineEnds[lineNumber]
            let line = head[lineStart..<lineEnd]
            lineStart = lineEnd + 2
            guard let first = line.first else { return .failure(.badRequest("empty header line")) }
            if first == space || first == tab { return .failure(.badRequest("obsolete line folding")) }
            guard let colon = HeadByteScan.firstIndex(of: UInt8(ascii: ":"), in: head, from: line.startIndex, to: line.endIndex) else {
                return .failure(.badRequest("header without colon"))
            }
            let name = UnsafeBufferPointer(rebasing: line[line.startIndex..<colon])
            // Each name recognised once, here: the head's look-ups read the index. A common
            // name is all letters and "-", so only the others are checked byte by byte.
            let common = CommonHeaderName.classify(name)
            guard common != nil || (!name.isEmpty && name.allSatisfy(isTokenCharacter)) else {
                return .failure(.badRequest("bad header name"))
            }
            var valueStart = colon + 1
            var valueEnd = line.endIndex
            while valueStart < valueEnd, head[valueStart] == space || head[valueStart] == tab { valueStart += 1 }
            while valueEnd > valueStart, head[valueEnd - 1] == space || head[valueEnd - 1] == tab { valueEnd -= 1 }
            fieldIndex.note(common?.name, at: spans.count)
            if common?.name == .host && hostValue == nil { hostValue = UnsafeBufferPointer(rebasing: head[valueStart..<valueEnd]) }
            spans.append(HeaderFields.Span(nameStart: UInt32(line.startIndex - fieldsStart), nameEnd: UInt32(colon - fieldsStart),
                                           valueStart: UInt32(valueStart - fieldsStart), valueEnd: UInt32(valueEnd - fieldsStart),
                                           classified: common))
        }
        // The fields keep the bytes they came in (a slice of the connection's buffer): no copy.
        let fields = HeaderFields(bytes: owner[(owner.startIndex + fieldsStart)...], spans: spans, index: fieldIndex)
        let method = CommonHeaderName.string(of: UnsafeBufferPointer(rebasing: methodBytes), usually: "GET", "GET")

        // The usual request, every name indexed and no body: checked in the index, and its
        // head made in the result (a head made first and then returned was copied whole).
        if fieldIndex.isComplete && fieldIndex.fields(.transferEncoding).count == 0 && fieldIndex.fields(.contentLength).count == 0 {
            if let problem = hostProblem(count: fieldIndex.fields(.host).count, value: hostValue, version: version) {
                return .failure(problem)
            }
            return .success(HTTPRequestHead(method: method, target: target, pathAndQuery: pathAndQuery, authority: authority,
                                            version: version, fields: fields))
        }
        let request = HTTPRequestHead(method: method, target: target, pathAndQuery: pathAndQuery, authority: authority,
                                      version: version, fields: fields)
        if let problem = hostProblem(count: request.fieldCount(.host), value: hostValue, version: version) {
            return .failure(problem)
        }
        switch bodyFraming(request) {
        case .success(.none):
            return .success(request)
        case .success(let body):
            var framed = request
            framed.body = body
            return .success(framed)
        case .failure(let error):
            return .failure(error)
        }
    }

    /// What is wrong with a head's Host fields (`count` of them, the first's `value`), if anything.
    private static func hostProblem(count: Int, value: UnsafeBufferPointer<UInt8>?, version: (major: Int, minor: Int)) -> HTTPParseError? {
        // RFC 9112 §3.2: more than one Host is 400 in every version, none in 1.1 too.
        if count > 1 { return .badRequest("more than one Host") }
        if version.minor >= 1 && count == 0 { return .badRequest("HTTP/1.1 needs a Host") }
        // An empty Host is allowed (a target without authority); any other must be host[:port].
        if let value, !value.isEmpty, !HostPolicy.isWellFormed(hostBytes: value) { return .badRequest("bad Host") }
        return nil
    }

    private static func parseVersion(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Result<(major: Int, minor: Int), HTTPParseError> {
        let text = UnsafeBufferPointer(rebasing: bytes)
        // "HTTP/" byte by byte: elementsEqual with a literal's UTF-8 view went through generic
        // code (about 290 instructions a request).
        guard text.count == 8, text[0] == UInt8(ascii: "H"), text[1] == UInt8(ascii: "T"), text[2] == UInt8(ascii: "T"),
              text[3] == UInt8(ascii: "P"), text[4] == UInt8(ascii: "/"), isDigit(text[5]), text[6] == UInt8(ascii: "."),
              isDigit(text[7]) else {
            return .failure(.badRequest("bad HTTP version"))
        }
        let major = Int(text[5] - UInt8(ascii: "0"))
        let minor = Int(text[7] - UInt8(ascii: "0"))
        guard major == 1 else { return .failure(.versionNotSupported) }
        // A later 1.x minor version is answered as 1.1 (RFC 9110 §6.2).
        return .success((1, min(minor, 1)))
    }

    /// The origin-form of `target` and the authority of an absolute-form one: itself when it
    /// starts with "/", the path and authority of an absolute-form http(s) URI, or nil.
    private static func originTarget(_ target: String) -> (String, String?)? {
        if target.hasPrefix("/") { return (target, nil) }
        let lower = target.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            let authority = String(rest[..<end])
            guard !authority.isEmpty else { return nil }
            if end == rest.endIndex { return ("/", authority) }
            return (rest[end] == "/" ? String(rest[end...]) : "/" + rest[end...], authority)
        }
        return nil
    }

    private static func bodyFraming(_ request: HTTPRequestHead) -> Result<HTTPRequestHead.Body, HTTPParseError> {
        // The usual request has neither header: two look-ups in the index.
        if request.field(.transferEncoding).count == 0 && request.field(.contentLength).count == 0 {
            return .success(.none)
        }
        let transferEncodings = request.headers(named: "transfer-encoding")
        let lengths = request.headers(named: "content-length")
        if !transferEncodings.isEmpty {
            guard lengths.isEmpty else { return .failure(.badRequest("both Transfer-Encoding and Content-Length")) }
            guard request.version.minor >= 1 else { return .failure(.badRequest("Transfer-Encoding in HTTP/1.0")) }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace().lowercased() }
            guard codings.last == "chunked" else { return .failure(.badRequest("chunked is not the final transfer coding")) }
            return .success(.chunked)
        }
        var length: Int?
        for field in lengths {
            for item in field.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = item.trimmingWhitespace()
                guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy(isDigit), let value = Int(digits) else {
                    return .failure(.badRequest("bad Content-Length"))
                }
                if let length, length != value { return .failure(.badRequest("conflicting Content-Length")) }
                length = value
            }
        }
        if let length, length > 0 { return .success(.contentLength(length)) }
        return .success(.none)
    }

    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// Control characters that may not appear anywhere in a head (HTAB, CR and LF have their own rules).
    static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0D && byte != 0x0A) || byte == 0x7F
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// How many of the eight bytes of `word` (in memory order) come before the first
    /// control byte or DEL: 8 when there is none.
    static func ordinaryByteCount(_ word: UInt64) -> Int {
        controlMask(UInt64(littleEndian: word)).trailingZeroBitCount / 8
    }

    /// The high bit of each byte of `word` that is below 0x20 or DEL, exact up to the lowest
    /// one: a borrow can only flag bytes above a true one.
    private static func controlMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let deletes = word ^ (ones &* 0x7F)
        return ((word &- ones &* 0x20) & ~word | (deletes &- ones) & ~deletes) & (ones &* 0x80)
    }

    /// RFC 9110 tchar: letters, digits and `!#$%&'*+-.^_`|~`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E:
            true
        default:
            false
        }
    }
}
