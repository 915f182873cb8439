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
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxBytes else { return nil }
        var pairs: [(name: String, value: String)] = []
        var index = 0
        while index < bytes.count {
            guard pairs.count < Self.maxPairs else { return nil }
            let nameStart = index
            while index < bytes.count, HTTPRequestParser.isTokenCharacter(bytes[index]) { index += 1 }
            guard index > nameStart, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            index += 1
            var quoted = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                quoted = true
                index += 1
            }
            let valueStart = index
            while index < bytes.count, Self.isCookieOctet(bytes[index]) { index += 1 }
            let valueEnd = index
            if quoted {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
                index += 1
            }
            pairs.append((name, String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)))
            guard index < bytes.count else { break }
            // The separator is exactly "; ", and something must follow it.
            guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: ";"), bytes[index + 1] == UInt8(ascii: " ") else { return nil }
            index += 2
        }
        self.pairs = pairs
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
