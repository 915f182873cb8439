import Accounts
import FoundationEssentials
import Glibc
import HTTPServer
import Logging
import Sessions

/// Signing in on this server: who an upgrade is from (the session cookie or a bearer token,
/// from a cache that revocations update, else looked up off the loop), the hand-over of a
/// right login's code for the cookie, log out, and the revocations of every instance
/// reaching the live sessions they end. See docs/SECURITY.md, "Signed-in sessions".
final class SignInBackend: Sendable {
    let store: CredentialStore
    let policy: SignInPolicy
    /// The live signed-in sessions of every loop.
    let sessions: SignedInSessions
    private let trustedProxies: TrustedProxies
    private let lookups: WorkerPool
    private let logger: Logger
    private let cache = SignInCache()
    private let watcher: RevocationWatcher

    init(store: CredentialStore, policy: SignInPolicy, sessions: SignedInSessions, trustedProxies: TrustedProxies, logger: Logger) {
        self.store = store
        self.policy = policy
        self.sessions = sessions
        self.trustedProxies = trustedProxies
        self.logger = logger
        lookups = WorkerPool(threads: 2, name: "rxlive.sign-in")
        let sessions = sessions
        let cache = cache
        watcher = RevocationWatcher(store: store, onError: { message in
            logger.warning("cannot read the sign-out log; sign-outs from elsewhere wait until it is back", metadata: ["error": "\(message)"])
        }, onEverySecond: {
            sessions.signOutExpired(now: wallClock())
        }, onRevoked: { revocations in
            Self.apply(revocations, cache: cache, sessions: sessions)
        })
        watcher.start()
    }

    func stop() {
        watcher.stop()
        lookups.shutdown()
    }

    // MARK: who is there

    /// The identifier of the upgrades (`SessionConfiguration.identify`).
    var identifier: SessionIdentifier {
        { [self] request, answer in identify(request, answer: answer) }
    }

    private func identify(_ request: HTTPRequestContext, answer: @escaping @Sendable (SessionIdentification) -> Void) {
        let credential = SignInCredential(request, secure: isSecure(request))
        guard let credential else { return answer(.anonymous) }
        let key = credential.withToken { SignInCacheKey(token: $0) }
        let now = wallClock()
        // Only a well-formed token is ever cached, so a hit needs no check of its shape.
        let cached = cache[key]
        if let cached, now < policy.validUntil(lastUsedAt: cached.lastUsedAt, expiresAt: cached.expiresAt),
           now - cached.lastUsedAt < policy.touchInterval {
            return answer(.signedIn(cached.user))
        }
        // A token that can be no token is refused without a lookup.
        let token = credential.token
        guard SignInSecret.isWellFormed(token) else { return answer(refusal(credential)) }
        let store = store, policy = policy, cache = cache, logger = logger
        let refused = refusal(credential)
        let scheduled = lookups.schedule(key: request.peerAddress ?? "", onShed: { answer(.refused(.error503)) }) {
            do {
                guard let session = try store.signedInSession(token: token, policy: policy) else {
                    cache[key] = nil
                    return answer(refused)
                }
                let user = SignedInUser(name: session.username, sessionID: session.id, expiresAt: session.expiresAt)
                cache[key] = SignInCache.Entry(user: user, lastUsedAt: session.lastUsedAt, expiresAt: session.expiresAt)
                answer(.signedIn(user))
            } catch {
                logger.error("cannot look up a sign-in: the accounts database did not answer", metadata: ["error": "\(error)"])
                answer(.refused(.error503))
            }
        }
        if scheduled == nil { answer(.refused(.error503)) }
    }

    /// What a credential that is not valid gets: a browser's stale cookie is anonymous (the
    /// page shows the login form), a script's bearer token is refused (it asked to count).
    private func refusal(_ credential: SignInCredential) -> SessionIdentification {
        credential.isBearer ? .refused(.signInRequired(invalidToken: true)) : .anonymous
    }

    /// Over TLS, or through a trusted proxy that says the client used HTTPS.
    func isSecure(_ request: HTTPRequestContext) -> Bool {
        if request.isTLS { return true }
        // The peer's address is written as text only when some proxy is trusted.
        guard !trustedProxies.isEmpty, let peer = request.peerAddress, trustedProxies.contains(peer) else { return false }
        return request.head.headers(named: "x-forwarded-proto").last?.lowercased() == "https"
    }

    // MARK: revocation

    /// Ends what `revocations` name here: their cache entries and live sessions.
    private static func apply(_ revocations: [Revocation], cache: SignInCache, sessions: SignedInSessions) {
        for revocation in revocations {
            cache.remove(revocation)
            switch revocation {
            case .session(let id): sessions.signOut(sessionID: id, reason: "logged out")
            case .user(let name): sessions.signOut(user: name, reason: "logged out everywhere")
            }
        }
    }

    /// Ends `revocations` on this instance at once, without waiting for the log.
    func revokedHere(_ revocations: [Revocation]) {
        Self.apply(revocations, cache: cache, sessions: sessions)
    }

    /// A right login of `username` from `client`'s session: a hand-over code is made and sent
    /// to that session (`{"signIn":…}`), which redeems it for the cookie. On a worker thread.
    func announceSignIn(of username: String, to client: WireClient) {
        do {
            client.announceSignIn(user: username, code: try store.issueSignInCode(for: username, policy: policy))
        } catch {
            logger.error("a right login could not sign in: the accounts database did not answer", metadata: ["error": "\(error)"])
        }
    }

    // MARK: running work off the loop

    /// Runs `work` on the lookup threads; `answer` gets 503 when they are saturated.
    func offLoop(_ request: HTTPRequestContext, answer: HTTPAnswer<HTTPResponse>, _ work: @escaping @Sendable () throws -> HTTPResponse) {
        let logger = logger
        let scheduled = lookups.schedule(key: request.peerAddress ?? "", onShed: { answer(.error503) }) {
            do {
                answer(try work())
            } catch {
                logger.error("sign-in: the accounts database did not answer", metadata: ["error": "\(error)"])
                answer(.error503)
            }
        }
        if scheduled == nil { answer(.error503) }
    }
}

/// Unix time in seconds from the system clock (Foundation's `Date` costs more per call).
private func wallClock() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

extension HTTPResponse {
    static let error503 = HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8",
                                       body: "503 the accounts database did not answer; try again\n")
}
