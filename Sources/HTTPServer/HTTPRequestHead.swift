import WebSocket
#if canImport(Glibc)
import Glibc
#endif

/// A parsed HTTP/1.1 request head (RFC 9112): request line and header fields.
public struct HTTPRequestHead: Sendable, Equatable {
    /// How the message body's length is framed.
    public enum Body: Sendable, Equatable {
        case none
        case contentLength(Int)
        case chunked
    }

    /// The method token, case-sensitive (e.g. "GET").
    public var method: String
    /// The request target as sent (origin-form, or the path of an absolute-form target).
    public var target: String
    // `Optional<String>` here and below, not `String?`: a `var x: T?` starts as nil before
    // `init` sets it, and that second store made the optimiser build each head in a temporary
    // and copy it out, retaining and releasing every string and buffer in it.
    /// The authority (host and optional port) of an absolute-form target
    /// (`GET http://example.com:8080/ HTTP/1.1`); nil for the other forms.
    public var authority: Optional<String>
    /// The target's path, still percent-encoded.
    public var path: String
    /// The target's query without "?", if any.
    public var query: Optional<String>
    /// HTTP major and minor version (1.0 or 1.1).
    public var version: (major: Int, minor: Int)
    /// Header fields in order, names as sent, values without surrounding whitespace.
    public var headers: [(name: String, value: String)] {
        get { (0..<fields.count).map { (fields.name($0), fields.value($0)) } }
        set { fields = HeaderFields(newValue) }
    }
    /// The fields as they came, made strings only when looked up.
    private(set) var fields: HeaderFields
    /// Where the commonly looked-up fields are (kept by the parser as it reads the names).
    private var fieldIndex: HeaderFieldIndex { fields.index }
    /// The body framing announced by the head.
    public var body: Body

    /// A head from its parts; `path` and `query` are split from `target`.
    public init(method: String, target: String, authority: String? = nil, version: (major: Int, minor: Int) = (1, 1),
                headers: [(name: String, value: String)] = [], body: Body = .none) {
        self.init(method: method, target: target, pathAndQuery: nil, authority: authority, version: version,
                  fields: HeaderFields(headers), body: body)
    }

    /// A head of the parser's fields, and its target's path and query when the parser split
    /// them from the bytes.
    init(method: String, target: String, pathAndQuery: (path: String, query: String?)?, authority: String?,
         version: (major: Int, minor: Int), fields: HeaderFields, body: Body = .none) {
        self.method = method
        self.target = target
        self.authority = authority
        self.version = version
        self.fields = fields
        self.body = body
        if let pathAndQuery {
            (path, query) = pathAndQuery
            return
        }
        // Split at the first "?" (ASCII, so its UTF-8 index is a character boundary), found
        // in the string's bytes in place: through `utf8.firstIndex` it cost about 250
        // instructions a request.
        let offset = target.utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: UInt8(ascii: "?")) }
            ?? target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target.utf8.distance(from: target.utf8.startIndex, to: $0) }
        if let offset {
            let mark = target.utf8.index(target.utf8.startIndex, offsetBy: offset)
            path = String(target[..<mark])
            query = String(target[target.utf8.index(after: mark)...])
        } else {
            path = target
            query = nil
        }
    }

    /// The first value of the header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        if let common = indexed(name) { return field(common).first }
        return headerCount(named: name).first
    }

    /// The host the request is for: an absolute-form target's authority, which overrides
    /// `Host` (RFC 9112 §3.2.2), else the `Host` field; nil when neither is sent (HTTP/1.0).
    public var host: String? {
        authority ?? field(.host).first
    }

    /// Whether the `Host` field, when there is one, names a host `policy` accepts: read in
    /// place (the parser has refused a head with more than one).
    func hostFieldIsAccepted(by policy: HostPolicy) -> Bool {
        guard fieldIndex.isComplete else { return field(.host).first.map(policy.accepts(host:)) ?? true }
        let (count, first) = fieldIndex.fields(.host)
        if count == 0 { return true }
        return fields.withValue(first) { value in policy.accepts(hostBytes: value) }
    }

    /// `hostFieldIsAccepted(by:)`, answered by one comparison when the field's bytes are
    /// `accepted`, a Host the policy accepted before: a client names the same host in every
    /// request, so the name need not be read again (about 300 instructions a request). A
    /// newly accepted Host of at most 64 bytes becomes `accepted`.
    func hostFieldIsAccepted(by policy: HostPolicy, remembering accepted: inout [UInt8]) -> Bool {
        guard fieldIndex.isComplete else { return hostFieldIsAccepted(by: policy) }
        let (count, first) = fieldIndex.fields(.host)
        if count == 0 { return true }
        return fields.withValue(first) { value in
            if let base = value.baseAddress, !value.isEmpty, value.count == accepted.count,
               accepted.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base, value.count) == 0 }) {
                return true
            }
            guard policy.accepts(hostBytes: value) else { return false }
            if value.count <= 64 { accepted = Array(value) }
            return true
        }
    }

    /// Every value of the header `name` (case-insensitive), in order.
    public func headers(named name: String) -> [String] {
        if let common = indexed(name) { return values(of: common) }
        return fields.values(named: name)
    }

    /// How many fields are named `name` (2 standing for "more than one" when the head has
    /// no index) and the first one's value: whether a field is there exactly once, with no
    /// array made (an indexed name is no scan either).
    public func fieldCount(named name: String) -> (count: Int, first: String?) {
        if let common = indexed(name) { return field(common) }
        let (count, first) = headerCount(named: name)
        return (min(count, 2), first)
    }

    /// The common name `name` is when the index has its slot.
    private func indexed(_ name: String) -> CommonHeaderName? {
        guard fieldIndex.isComplete, let common = CommonHeaderName.classify(name),
              common.rawValue < CommonHeaderName.indexedCount else { return nil }
        return common
    }

    /// How many headers have the common name `name` (an indexed one): 0, 1, or 2 for two or
    /// more; and the first one's value. A look-up in the index, no scan.
    @inline(__always)
    package func field(_ name: CommonHeaderName) -> (count: Int, first: String?) {
        guard fieldIndex.isComplete else {
            let (count, first) = headerCount(named: name.lowercasedString)
            return (min(count, 2), first)
        }
        let (count, first) = fieldIndex.fields(name)
        return (count, count == 0 ? nil : fields.value(first))
    }

    /// How many headers have the common name `name` (an indexed one): 0, 1, or 2 for two or
    /// more; no value is made.
    func fieldCount(_ name: CommonHeaderName) -> Int {
        guard fieldIndex.isComplete else { return min(headerCount(named: name.lowercasedString).count, 2) }
        return fieldIndex.fields(name).count
    }

    /// `body` of the bytes of the one header with the common name `name` (an indexed one), or
    /// nil when there is none or more than one; no `String` is made.
    func withOnlyFieldValue<Result>(_ name: CommonHeaderName, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard fieldIndex.isComplete else {
            let (count, first) = headerCount(named: name.lowercasedString)
            guard count == 1, var value = first else { return body(nil) }
            return value.withUTF8 { body($0) }
        }
        let (count, first) = fieldIndex.fields(name)
        return count == 1 ? fields.withValue(first, body) : body(nil)
    }

    /// Whether some header with the common name `name` (an indexed one) is `usual` exactly,
    /// compared in place, or has a value `predicate` accepts.
    @inline(__always)
    func containsField(_ name: CommonHeaderName, usually usual: StaticString, where predicate: (String) -> Bool) -> Bool {
        if fieldIndex.isComplete {
            let (count, first) = fieldIndex.fields(name)
            if count == 1 && fields.valueIs(first, usual) { return true }
        }
        return containsField(name, where: predicate)
    }

    /// Every value of the headers with the common name `name` (an indexed one), in order.
    package func values(of name: CommonHeaderName) -> [String] {
        switch field(name) {
        case (0, _): []
        case (1, let first?): [first]
        default: fields.values(named: name.lowercasedString)
        }
    }

    /// Whether some header with the common name `name` (an indexed one) has a value
    /// `predicate` accepts.
    func containsField(_ name: CommonHeaderName, where predicate: (String) -> Bool) -> Bool {
        switch field(name) {
        case (0, _): false
        case (1, let first?): predicate(first)
        default: (0..<fields.count).contains { fields.hasName($0, name.lowercasedString) && predicate(fields.value($0)) }
        }
    }

    /// How many headers are named `name` (case-insensitive), and the first one's value: a
    /// scan that makes no array.
    func headerCount(named name: String) -> (count: Int, first: String?) {
        var count = 0
        var first: String?
        for index in 0..<fields.count where fields.hasName(index, name) {
            if count == 0 { first = fields.value(index) }
            count += 1
        }
        return (count, first)
    }

    /// True when the `Connection` header lists `token` (case-insensitive; `token` in lower case).
    public func connectionHeaderContains(_ token: String) -> Bool {
        containsField(.connection) { WebSocketHandshake.headerValue($0, containsToken: token) }
    }

    /// Whether the connection stays open after this request (HTTP/1.1 default on, 1.0 default off).
    public var keepAlive: Bool {
        if connectionHeaderContains("close") { return false }
        if version.major == 1 && version.minor == 0 { return connectionHeaderContains("keep-alive") }
        return true
    }

    /// Heads are equal when every part is.
    public static func == (lhs: HTTPRequestHead, rhs: HTTPRequestHead) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.authority == rhs.authority && lhs.version == rhs.version
            && lhs.body == rhs.body && lhs.fields == rhs.fields
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> Substring {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
