/// Splits a connection's byte stream into request heads, with bounds: a head may not pass
/// `maxHeadSize` bytes, and a body is taken only when its `Content-Length` is at most
/// `maxBodySize`: one of at most `maxKeptBodySize` bytes is kept for the route (`body`, a
/// sign-in's code), a longer one skipped.
///
/// Malformed input fails fast: a bare LF, a CR not followed by LF or a control character is
/// refused as soon as it arrives, without waiting for the end of the head.
public struct HTTPRequestDecoder {
    /// Limits applied while decoding.
    public struct Limits: Sendable {
        /// Largest head in bytes, request line to the empty line included (431 above).
        public var maxHeadSize: Int
        /// Most header fields (431 above).
        public var maxHeaderCount: Int
        /// Largest Content-Length skipped (413 above).
        public var maxBodySize: Int
        /// Largest body kept for the route; a longer one is skipped unread.
        public var maxKeptBodySize = 4096

        /// Limits with the server's defaults.
        public init(maxHeadSize: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodySize: Int = 64 * 1024) {
            self.maxHeadSize = maxHeadSize
            self.maxHeaderCount = maxHeaderCount
            self.maxBodySize = maxBodySize
        }
    }

    /// One result of `next()`.
    public enum Output: Equatable {
        case head(HTTPRequestHead)
        case failure(HTTPParseError)
    }

    /// The limits this decoder enforces.
    public let limits: Limits
    private var buffer: [UInt8] = []
    private var scanned = 0
    private var bodyToSkip = 0
    /// A head whose body is still arriving, and that body's length. Boxed, so that a decoder
    /// (every HTTP connection holds one) keeps one word for it rather than a whole head.
    private var waitingHead: WaitingHead?
    /// The body of the last head `next()` returned: empty when it had none or a longer one
    /// than `maxKeptBodySize` (skipped).
    public private(set) var body: [UInt8] = []
    /// True after a failure or a chunked body: the stream can no longer be framed.
    public private(set) var isStopped = false

    /// A decoder at the start of a connection.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// True while bytes of an unfinished request (head or skipped body) are pending.
    public var hasPartialInput: Bool { !buffer.isEmpty || bodyToSkip > 0 || waitingHead != nil }

    /// Bytes held and not yet decoded.
    public var bufferedByteCount: Int { buffer.count }

    /// Adds bytes read from the connection.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !isStopped else { return }
        var bytes = bytes
        if bodyToSkip > 0 && buffer.isEmpty {
            let skipped = min(bodyToSkip, bytes.count)
            bodyToSkip -= skipped
            bytes = UnsafeRawBufferPointer(rebasing: bytes[skipped...])
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete request head, a failure, or nil when more bytes are needed.
    public mutating func next() -> Output? {
        guard !isStopped else { return nil }
        if bodyToSkip > 0 {
            let skipped = min(bodyToSkip, buffer.count)
            buffer.removeFirst(skipped)
            bodyToSkip -= skipped
            if bodyToSkip > 0 { return nil }
        }
        if let waiting = waitingHead {
            guard buffer.count >= waiting.length else { return nil }
            body = Array(buffer[0..<waiting.length])
            buffer.removeFirst(waiting.length)
            waitingHead = nil
            return .head(waiting.head)
        }
        body = []
        // RFC 9112 §2.2: empty lines before a request line are ignored.
        var leading = 0
        while leading + 1 < buffer.count, buffer[leading] == HTTPRequestParser.cr, buffer[leading + 1] == HTTPRequestParser.lf {
            leading += 2
        }
        if leading > 0 {
            buffer.removeFirst(leading)
            scanned = 0
        }
        // A head scanned from its first byte in one go (the usual: it came in one read) has its
        // line ends noted by the scan, and the parser does not check its bytes again.
        let fromStart = scanned == 0
        let parsed = withUnsafeTemporaryAllocation(of: Int.self, capacity: max(0, limits.maxHeaderCount) + 2) { lineEnds in
            var crCount = 0
            let end = scanForEndOfHead(noting: fromStart ? lineEnds : nil, count: &crCount)
            return end.map { end in
                end.map { headEnd in
                    // The last CR noted is the empty line's: the head's lines are the others. A
                    // head that fills the buffer keeps it (its fields are a slice of it, no copy);
                    // one with bytes after it (a body, frames) gets a copy of its own, so that it
                    // holds no more than itself and the buffer stays the decoder's alone.
                    let head = headEnd == buffer.count ? buffer[0..<(headEnd - 4)] : Array(buffer[0..<(headEnd - 4)])[...]
                    let result = fromStart
                        ? HTTPRequestParser.parse(head, maxHeaderCount: limits.maxHeaderCount, checkedLineEnds: lineEnds,
                                                  lineCount: crCount - 1)
                        : HTTPRequestParser.parse(head, maxHeaderCount: limits.maxHeaderCount)
                    return (headEnd, result)
                }
            }
        }
        guard let parsed else { return nil }
        guard case .success(let (headEnd, result)) = parsed else {
            if case .failure(let error) = parsed { return fail(error) }
            return nil
        }
        // A head that filled the buffer took it.
        if headEnd == buffer.count {
            buffer = []
        } else {
            buffer.removeFirst(headEnd)
        }
        scanned = 0
        switch result {
        case .failure(let error):
            return fail(error)
        case .success(let head):
            switch head.body {
            case .none:
                break
            case .contentLength(let length):
                if length > limits.maxBodySize { return fail(.contentTooLarge) }
                if length > 0 && length <= limits.maxKeptBodySize {
                    // A body already read is taken at once: no box made.
                    guard buffer.count >= length else {
                        waitingHead = WaitingHead(head: head, length: length)
                        return nil
                    }
                    body = Array(buffer[0..<length])
                    buffer.removeFirst(length)
                    return .head(head)
                }
                bodyToSkip = length
            case .chunked:
                isStopped = true
            }
            return .head(head)
        }
    }

    /// Hands over the bytes after the last head (e.g. WebSocket frames that followed an
    /// upgrade request) and stops decoding.
    public mutating func takeRemainingBytes() -> [UInt8] {
        isStopped = true
        defer { buffer = [] }
        return buffer
    }

    private mutating func fail(_ error: HTTPParseError) -> Output {
        isStopped = true
        buffer = []
        return .failure(error)
    }

    /// Index just past CRLFCRLF, a failure for malformed bytes or an oversized head, or nil.
    /// One pass over the buffer's storage; ordinary bytes (not a control, not after a CR)
    /// are skipped sixteen or eight at a time, or take one comparison each near the end.
    /// With `lineEnds`, the offset of each CR of a CRLF is noted there in order (as many as it
    /// holds) and `count` counts them all.
    private mutating func scanForEndOfHead(noting lineEnds: UnsafeMutableBufferPointer<Int>?,
                                           count: inout Int) -> Result<Int, HTTPParseError>? {
        let maxHeadSize = limits.maxHeadSize
        let (result, stop) = buffer.withUnsafeBufferPointer { bytes -> (Result<Int, HTTPParseError>?, Int) in
            var index = scanned
            var previous: UInt8 = index > 0 ? bytes[index - 1] : 0
            let wordsEnd = min(bytes.count, maxHeadSize)
            while index < bytes.count {
                if previous != HTTPRequestParser.cr, index + 8 <= wordsEnd {
                    // Straight to the first control byte of the next 16 (or 8) bytes, taken
                    // below in the same step (a line's CRLF costs no extra turn), or past them.
                    let window = index + 16 <= wordsEnd ? 16 : 8
                    let start = UnsafeRawPointer(bytes.baseAddress! + index)
                    let ordinary = window == 16 ? HeadByteScan.ordinaryByteCount(at: start)
                        : HTTPRequestParser.ordinaryByteCount(start.loadUnaligned(as: UInt64.self))
                    if ordinary > 0 {
                        index += ordinary
                        previous = bytes[index - 1]
                        if ordinary == window { continue }
                    }
                }
                if index >= maxHeadSize { return (.failure(.headTooLarge), index) }
                let byte = bytes[index]
                if byte == HTTPRequestParser.cr, previous != HTTPRequestParser.cr, index + 1 < bytes.count, index + 1 < maxHeadSize,
                   bytes[index + 1] == HTTPRequestParser.lf {
                    // A CRLF in one step (every line's end), taken as the two steps below would;
                    // any other byte after a CR goes through them (its own error comes first).
                    if let lineEnds {
                        if count < lineEnds.count { lineEnds[count] = index }
                        count += 1
                    }
                    if index >= 2 && previous == HTTPRequestParser.lf { return (.success(index + 2), index + 2) }
                    previous = HTTPRequestParser.lf
                    index += 2
                    continue
                }
                if byte < 0x20 || byte == 0x7F || previous == HTTPRequestParser.cr {
                    if HTTPRequestParser.isForbiddenControl(byte) { return (.failure(.badRequest("control character")), index) }
                    if previous == HTTPRequestParser.cr && byte != HTTPRequestParser.lf {
                        return (.failure(.badRequest("bare CR")), index)
                    }
                    if byte == HTTPRequestParser.lf {
                        if previous != HTTPRequestParser.cr { return (.failure(.badRequest("bare LF")), index) }
                        if let lineEnds {
                            if count < lineEnds.count { lineEnds[count] = index - 1 }
                            count += 1
                        }
                        if index >= 3 && bytes[index - 2] == HTTPRequestParser.lf { return (.success(index + 1), index + 1) }
                    }
                }
                previous = byte
                index += 1
            }
            return (nil, index)
        }
        scanned = stop
        return result
    }
}

/// `HTTPRequestDecoder.waitingHead`'s box.
private final class WaitingHead {
    let head: HTTPRequestHead
    let length: Int

    init(head: HTTPRequestHead, length: Int) {
        self.head = head
        self.length = length
    }
}
