import Accounts
import HTTPServer

/// The sign-in endpoints (docs/PROTOCOL.md, "Signing in"), each a `POST` that must come from
/// the page's own origin (or an allowed one), so another site cannot sign a browser in or out.
/// The page posts a form and is sent back with `303`; a script gets JSON (`SignInRequest`).
///
/// - `/auth/session`: a right login's hand-over code; the answer sets the session cookie and
///   says who signed in.
/// - `/auth/logout`: ends the session the cookie (or bearer token) names, on every instance,
///   and deletes the cookie.
/// - `/auth/logout-everywhere`: ends every session of that user.
enum SignInRoutes {
    static func register(on server: HTTPServer, backend: SignInBackend) {
        server.addDeferredRoute("/auth/session", methods: ["POST"]) { request, answer in
            guard isFromThePage(request) else { return answer(forbiddenOrigin) }
            let form = SignInRequest(request)
            // A form whose code does not work goes back to the page, which shows the login form.
            let refused = form.returnPath == nil ? unknownCode : form.redirect(setting: nil)
            guard SignInSecret.isWellFormed(form.code) else { return answer(refused) }
            let secure = backend.isSecure(request)
            let address = request.peerAddress ?? ""
            let agent = request.head.header("user-agent") ?? ""
            backend.offLoop(request, answer: answer) {
                guard let issued = try backend.store.redeemSignInCode(form.code, clientAddress: address, userAgent: agent,
                                                                     policy: backend.policy) else { return refused }
                let cookie = SignInCredential.setCookie(issued.token, maxAge: Int(backend.policy.lifetime), secure: secure)
                guard form.returnPath == nil else { return form.redirect(setting: cookie) }
                return json(200, "{\"user\":\(jsonString(issued.session.username))}", cookie: cookie)
            }
        }
        for (path, everywhere) in [("/auth/logout", false), ("/auth/logout-everywhere", true)] {
            server.addDeferredRoute(path, methods: ["POST"]) { request, answer in
                guard isFromThePage(request) else { return answer(forbiddenOrigin) }
                let secure = backend.isSecure(request)
                let form = SignInRequest(request)
                let cleared = SignInCredential.clearCookie(secure: secure)
                let signedOut = form.returnPath == nil ? json(200, "{\"signedOut\":true}", cookie: cleared) : form.redirect(setting: cleared)
                guard let token = SignInCredential(request, secure: secure)?.token, SignInSecret.isWellFormed(token) else {
                    return answer(signedOut)
                }
                backend.offLoop(request, answer: answer) {
                    guard let session = try backend.store.revokeSession(token: token) else { return signedOut }
                    var revoked: [Revocation] = [.session(id: session.id)]
                    if everywhere {
                        try backend.store.revokeAllSessions(of: session.username)
                        revoked.append(.user(session.username))
                    }
                    backend.revokedHere(revoked)
                    return signedOut
                }
            }
        }
    }

    /// Whether the request comes from the page's own origin (or an allowed one), as no other
    /// site can make it: its one `Origin` says so, or, where the page's `Referrer-Policy:
    /// no-referrer` makes the browser send `Origin: null` on a form post, its Fetch Metadata
    /// `Sec-Fetch-Site: same-origin` does (a header no page can set).
    private static func isFromThePage(_ request: HTTPRequestContext) -> Bool {
        if request.originAllowed { return true }
        let origins = request.head.values(of: .origin)
        guard origins == ["null"] else { return false }
        return request.head.headers(named: "sec-fetch-site") == ["same-origin"]
    }

    private static let forbiddenOrigin = json(403, #"{"error":"this request must come from the page's own origin"}"#)
    private static let unknownCode = json(403, #"{"error":"the sign-in code is unknown, used already or expired; log in again"}"#)

    private static func json(_ status: Int, _ body: String, cookie: (name: String, value: String)? = nil) -> HTTPResponse {
        var response = HTTPResponse(status: status, contentType: "application/json", body: body)
        response.headers.append(("Cache-Control", "no-store"))
        if let cookie { response.headers.append(cookie) }
        return response
    }

    /// `text` as a JSON string (a username may hold quotes or backslashes).
    private static func jsonString(_ text: String) -> String {
        var json = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case _ where scalar.value < 0x20: json += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json + "\""
    }
}
