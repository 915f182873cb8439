/// A session signed in as `user`. A subclass, so that an anonymous session (most of those a
/// server holds) keeps no word for a user: `Session` is 101 bytes in a 112-byte malloc block
/// where a `user` field made it 116 in a 128-byte one (`SessionsLayoutTests`).
final class SignedInSession: Session, @unchecked Sendable {  // `user` is immutable; the rest is `Session`'s
    let user: SignedInUser

    init(endpoint: SessionEndpoint, transport: (any SessionTransport)? = nil, user: SignedInUser) {
        self.user = user
        super.init(endpoint: endpoint, transport: transport)
    }
}

extension Session {
    /// A session of `endpoint` signed in as `identity`, or an anonymous one for nil.
    static func make(endpoint: SessionEndpoint, transport: (any SessionTransport)? = nil,
                     identity: SignedInUser?) -> Session {
        guard let identity else { return Session(endpoint: endpoint, transport: transport) }
        return SignedInSession(endpoint: endpoint, transport: transport, user: identity)
    }

    /// Who the session is signed in as; nil for nobody. One comparison of the class.
    var identity: SignedInUser? {
        guard type(of: self) == SignedInSession.self else { return nil }
        return unsafeDowncast(self, to: SignedInSession.self).user
    }
}
