import HTTPServer

/// The token an upgrade or a log out presents: `Authorization: Bearer <token>` (scripts), or
/// the session cookie (the page). The cookie's name is `__Host-rxlive-session` on a secure
/// origin (TLS, or a proxy that says HTTPS): the prefix makes the browser refuse it unless it
/// is `Secure`, has `Path=/` and no `Domain`, so a sibling site cannot plant one; a plain
/// HTTP origin cannot set a `Secure` cookie, so there it is `rxlive-session`.
struct SignInCredential: Sendable {
    let token: String
    let isBearer: Bool

    static let secureCookieName = "__Host-rxlive-session"
    static let plainCookieName = "rxlive-session"

    static func cookieName(secure: Bool) -> String { secure ? secureCookieName : plainCookieName }

    /// The credential of `request`; nil when it presents none (a malformed or ambiguous
    /// cookie header presents none, RFC 6265 strictly).
    init?(_ request: HTTPRequestContext, secure: Bool) {
        let authorization = request.head.headers(named: "authorization")
        if let field = authorization.first {
            guard authorization.count == 1 else { return nil }
            // RFC 6750 §2.1: the scheme is case-insensitive, one space, then the token.
            let parts = field.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            token = String(parts[1])
            isBearer = true
            return
        }
        guard let cookies = CookieHeader(request.head), let value = cookies.uniqueValue(of: Self.cookieName(secure: secure)) else {
            return nil
        }
        token = value
        isBearer = false
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
