import Accounts
import HTTPServer

/// The sign-in endpoints (docs/PROTOCOL.md, "Signing in"), each a `POST` that must come from
/// the page's own origin (or an allowed one), so another site cannot sign a browser in or out:
///
/// - `/auth/session`: the body is a right login's hand-over code; the answer sets the
///   session cookie and says who signed in.
/// - `/auth/logout`: ends the session the cookie (or bearer token) names, on every instance,
///   and deletes the cookie.
/// - `/auth/logout-everywhere`: ends every session of that user.
enum SignInRoutes {
    static func register(on server: HTTPServer, backend: SignInBackend) {
        server.addDeferredRoute("/auth/session", methods: ["POST"]) { request, answer in
            guard request.originAllowed else { return answer(forbiddenOrigin) }
            let code = String(decoding: request.body, as: UTF8.self).trimmingSpaces
            guard SignInSecret.isWellFormed(code) else { return answer(unknownCode) }
            let secure = backend.isSecure(request)
            let address = request.peerAddress ?? ""
            let agent = request.head.header("user-agent") ?? ""
            backend.offLoop(request, answer: answer) {
                guard let issued = try backend.store.redeemSignInCode(code, clientAddress: address, userAgent: agent,
                                                                     policy: backend.policy) else { return unknownCode }
                return json(200, "{\"user\":\(jsonString(issued.session.username))}",
                            cookie: SignInCredential.setCookie(issued.token, maxAge: Int(backend.policy.lifetime), secure: secure))
            }
        }
        for (path, everywhere) in [("/auth/logout", false), ("/auth/logout-everywhere", true)] {
            server.addDeferredRoute(path, methods: ["POST"]) { request, answer in
                guard request.originAllowed else { return answer(forbiddenOrigin) }
                let secure = backend.isSecure(request)
                let signedOut = json(200, "{\"signedOut\":true}", cookie: SignInCredential.clearCookie(secure: secure))
                guard let credential = SignInCredential(request, secure: secure), SignInSecret.isWellFormed(credential.token) else {
                    return answer(signedOut)
                }
                backend.offLoop(request, answer: answer) {
                    guard let session = try backend.store.revokeSession(token: credential.token) else { return signedOut }
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
            case _ where scalar.value < 0x20: json += String(format: "\\u%04x", scalar.value)
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json + "\""
    }
}

private extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
