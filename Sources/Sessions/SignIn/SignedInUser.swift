import HTTPServer

/// Who a session is signed in as: the user's name, and the id of the sign-in (the token's
/// public id, which a log out revokes). Made by the server's identifier at the upgrade.
public final class SignedInUser: Sendable {
    /// The account name.
    public let name: String
    /// The sign-in's public id (never the token).
    public let sessionID: String
    /// When the sign-in ends at the latest (Unix seconds): a live session is signed out then.
    public let expiresAt: Double
    /// `name` as a JSON string, written once for every `ready` of the sign-in.
    let nameJSON: FixedBytes

    /// A signed-in user whose sign-in lasts until `expiresAt` (Unix seconds) at the latest.
    public init(name: String, sessionID: String, expiresAt: Double = .infinity) {
        self.name = name
        self.sessionID = sessionID
        self.expiresAt = expiresAt
        var json = ""
        json.appendJSONString(name)
        nameJSON = FixedBytes(json.utf8)
    }
}

/// What an upgrade request says of who is there.
public enum SessionIdentification: Sendable {
    /// Nobody signed in: no credentials, or a browser's cookie that is no longer valid.
    case anonymous
    /// A valid session cookie or bearer token.
    case signedIn(SignedInUser)
    /// Credentials that were asked to count but do not (an unknown, revoked or expired
    /// bearer token): the upgrade is answered with this response instead.
    case refused(HTTPResponse)
}

/// Finds who an upgrade request is from (a session cookie or `Authorization: Bearer`),
/// answering through `answer`, perhaps later and from another thread (a database lookup
/// runs off the loop).
public typealias SessionIdentifier = @Sendable (HTTPRequestContext, _ answer: @escaping @Sendable (SessionIdentification) -> Void) -> Void

extension HTTPResponse {
    /// 401 for an upgrade that needs a signed-in user (RFC 6750's `WWW-Authenticate` for a
    /// bearer token that is not valid).
    public static func signInRequired(invalidToken: Bool) -> HTTPResponse {
        var response = HTTPResponse(status: 401, contentType: "text/plain; charset=utf-8",
                                    body: invalidToken ? "401 the bearer token is not valid (unknown, revoked or expired)\n"
                                                       : "401 this view model needs a signed-in user\n")
        response.headers.append(("WWW-Authenticate", invalidToken ? #"Bearer error="invalid_token""# : "Bearer"))
        return response
    }
}
