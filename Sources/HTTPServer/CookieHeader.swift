/// The `Cookie` request header, read strictly (RFC 6265 §4.2.1 and §5.4): `name=value`
/// pairs joined by `"; "`, each name a token and each value cookie-octets, optionally in
/// double quotes. A header that breaks the grammar, is over `maxBytes` or has more than
/// `maxPairs` pairs names no cookie at all: a sign-in is never read out of a header that
/// could mean two things.
public struct CookieHeader: Sendable, Equatable {
    /// Longest `Cookie` value read (browsers send at most about 4 KiB a cookie).
    public static let maxBytes = 8192
    /// Most pairs read.
    public static let maxPairs = 64

    /// The pairs in order (a name may repeat).
    public let pairs: [(name: String, value: String)]

    /// The cookies of `request`; nil when it sent none or a header that is not well formed
    /// (several `Cookie` fields are joined with "; ", as RFC 9110 §5.3 allows for this one).
    public init?(_ request: HTTPRequestHead) {
        let fields = request.headers(named: "cookie")
        guard !fields.isEmpty else { return nil }
        self.init(parsing: fields.joined(separator: "; "))
    }

    /// The cookies of one `Cookie` header value; nil when it is not well formed.
    public init?(parsing value: String) {
        var pairs: [(name: String, value: String)] = []
        let wellFormed = Self.scan(value) { name, value in
            pairs.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        guard wellFormed else { return nil }
        self.pairs = pairs
    }

    /// The value of the cookie `name` in `request`'s `Cookie` fields when they are well
    /// formed and name it exactly once: what `CookieHeader(request)?.uniqueValue(of: name)`
    /// gives, without making a string of every pair (an upgrade's sign-in is read this way).
    public static func uniqueValue(of name: String, in request: HTTPRequestHead) -> String? {
        // The indexed look-ups: by the name's string, it was classified first (about 100
        // instructions an upgrade).
        let (count, first) = request.field(.cookie)
        guard count > 0, let first else { return nil }
        let header = count == 1 ? first : request.values(of: .cookie).joined(separator: "; ")
        var found: Substring.UTF8View?
        var repeated = false
        var wanted = name
        let wellFormed = wanted.withUTF8 { wantedBytes in
            scan(header) { pairName, pairValue in
                guard pairName.elementsEqual(wantedBytes) else { return }
                if found != nil { repeated = true }
                found = pairValue
            }
        }
        guard wellFormed, !repeated, let found else { return nil }
        return String(Substring(found))
    }

    /// Reads `value` as a cookie string, calling `pair` with each name and value (the value
    /// without its quotes); false when it is not well formed or over a limit.
    private static func scan(_ value: String, _ pair: (Substring.UTF8View, Substring.UTF8View) -> Void) -> Bool {
        let text = Substring(value)
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= maxBytes else { return false }
        var index = bytes.startIndex
        var pairs = 0
        while index < bytes.endIndex {
            guard pairs < maxPairs else { return false }
            let nameStart = index
            while index < bytes.endIndex, HTTPRequestParser.isTokenCharacter(bytes[index]) { bytes.formIndex(after: &index) }
            guard index > nameStart, index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else { return false }
            let name = text[nameStart..<index].utf8
            bytes.formIndex(after: &index)
            let quoted = index < bytes.endIndex && bytes[index] == UInt8(ascii: "\"")
            if quoted { bytes.formIndex(after: &index) }
            let valueStart = index
            while index < bytes.endIndex, isCookieOctet(bytes[index]) { bytes.formIndex(after: &index) }
            let valueEnd = index
            if quoted {
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else { return false }
                bytes.formIndex(after: &index)
            }
            pair(name, text[valueStart..<valueEnd].utf8)
            pairs += 1
            guard index < bytes.endIndex else { break }
            // The separator is exactly "; ", and something must follow it.
            let space = bytes.index(after: index)
            guard bytes[index] == UInt8(ascii: ";"), space < bytes.endIndex, bytes[space] == UInt8(ascii: " "),
                  bytes.index(after: space) < bytes.endIndex else { return false }
            index = bytes.index(after: space)
        }
        return true
    }

    /// The value of the cookie `name` when it is sent exactly once; nil when it is absent or
    /// repeated (a second one may have been planted by a sibling site or a script).
    public func uniqueValue(of name: String) -> String? {
        var found: String?
        for pair in pairs where pair.name == name {
            guard found == nil else { return nil }
            found = pair.value
        }
        return found
    }

    public static func == (lhs: CookieHeader, rhs: CookieHeader) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    /// US-ASCII but controls, white space, DQUOTE, comma, semicolon and backslash.
    static func isCookieOctet(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x2B).contains(byte) || (0x2D...0x3A).contains(byte)
            || (0x3C...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
    }
}
