import HTTPServer

/// The token an upgrade or a log out presents: `Authorization: Bearer <token>` (scripts), or
/// the session cookie (the page). The cookie's name is `__Host-rxlive-session` on a secure
/// origin (TLS, or a proxy that says HTTPS): the prefix makes the browser refuse it unless it
/// is `Secure`, has `Path=/` and no `Domain`, so a sibling site cannot plant one; a plain
/// HTTP origin cannot set a `Secure` cookie, so there it is `rxlive-session`.
struct SignInCredential: Sendable {
    /// The header field or cookie value that holds the token, from `tokenOffset` (in UTF-8
    /// bytes) on: the token is read in place, and a string of it made only for the store.
    private let source: String
    private let tokenOffset: Int
    let isBearer: Bool

    static let secureCookieName = "__Host-rxlive-session"
    static let plainCookieName = "rxlive-session"

    static func cookieName(secure: Bool) -> String { secure ? secureCookieName : plainCookieName }

    /// The credential of `request`; nil when it presents none (a malformed or ambiguous
    /// cookie header presents none, RFC 6265 strictly).
    init?(_ request: HTTPRequestContext, secure: Bool) {
        let (count, authorization) = request.head.field(.authorization)
        if count > 0 {
            guard count == 1, let authorization, let offset = Self.bearerTokenOffset(authorization) else { return nil }
            source = authorization
            tokenOffset = offset
            isBearer = true
            return
        }
        guard let value = CookieHeader.uniqueValue(of: Self.cookieName(secure: secure), in: request.head) else { return nil }
        source = value
        tokenOffset = 0
        isBearer = false
    }

    /// The token as a string: what the store looks up.
    var token: String {
        withToken { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the token's UTF-8 bytes, in place.
    func withToken<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var source = source
        let offset = tokenOffset
        return source.withUTF8 { body(UnsafeBufferPointer(rebasing: $0[offset...])) }
    }

    /// Where the token of `Bearer <token>` starts (RFC 6750 §2.1: the scheme in any case,
    /// one space), or nil when `field` is no bearer credential.
    private static func bearerTokenOffset(_ field: String) -> Int? {
        var field = field
        return field.withUTF8 { bytes in
            let scheme: StaticString = "bearer "
            let count = scheme.utf8CodeUnitCount
            guard bytes.count > count else { return nil }
            for index in 0..<count {
                let expected = scheme.utf8Start[index]
                guard expected == 0x20 ? bytes[index] == 0x20 : bytes[index] | 0x20 == expected else { return nil }
            }
            return count
        }
    }

    /// `Set-Cookie` for `token`: kept for `maxAge` seconds, sent only to this site's own
    /// requests (`SameSite=Strict`), never readable from JavaScript (`HttpOnly`).
    static func setCookie(_ token: String, maxAge: Int, secure: Bool) -> (name: String, value: String) {
        var value = "\(cookieName(secure: secure))=\(token); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
        if secure { value += "; Secure" }
        return ("Set-Cookie", value)
    }

    /// `Set-Cookie` that deletes the session cookie.
    static func clearCookie(secure: Bool) -> (name: String, value: String) {
        setCookie("", maxAge: 0, secure: secure)
    }
}
