import RxSwift

/// The login of one session against a `CredentialStore`: the check runs on a
/// `WorkerPool`, and its answer comes back on the scheduler the session subscribed from
/// (its event loop), never blocking a loop.
///
/// `true` for a match, `false` for an unknown user or a wrong password; a name or password
/// that `CredentialRules` refuses fails at once with `LoginCheckError.invalid` (no hash, no
/// failure counted, nothing written), a throttled attempt with `LoginCheckError.rateLimited`,
/// a database that cannot answer with `LoginCheckError.unavailable`. The check waits in
/// the `WorkerPool` under the client's address: past the pool's bound it fails at once
/// with `busy(retryAfter: 1)`, which counts no failure. Disposing the request before the check starts drops
/// it; disposing it later drops its answer.
public struct StoreLoginService: Sendable {
    private let store: CredentialStore
    private let workers: WorkerPool
    private let clientAddress: String
    private let homeScheduler: @Sendable () -> any ImmediateSchedulerType
    private let onUnavailable: @Sendable (String) -> Void
    private let onAccepted: (@Sendable (_ username: String) -> Void)?

    /// A service for one client.
    /// - Parameters:
    ///   - clientAddress: the address failed attempts are also counted by.
    ///   - homeScheduler: called when a request is subscribed, on the subscribing thread:
    ///     the scheduler the answer is delivered on (the session's loop).
    ///   - onUnavailable: told why the database could not answer (for the log).
    ///   - onAccepted: run on the worker thread after a right password, before `true` is
    ///     delivered, with the name in NFC (to sign the client in).
    public init(
        store: CredentialStore, workers: WorkerPool, clientAddress: String,
        homeScheduler: @escaping @Sendable () -> any ImmediateSchedulerType,
        onUnavailable: @escaping @Sendable (String) -> Void = { _ in },
        onAccepted: (@Sendable (_ username: String) -> Void)? = nil
    ) {
        self.onAccepted = onAccepted
        self.store = store
        self.workers = workers
        self.clientAddress = clientAddress
        self.homeScheduler = homeScheduler
        self.onUnavailable = onUnavailable
    }

    /// Checks `username` and `password` on the worker pool.
    public func login(username: String, password: String) -> Observable<Bool> {
        let store = store, workers = workers, clientAddress = clientAddress
        let homeScheduler = homeScheduler, onUnavailable = onUnavailable, onAccepted = onAccepted
        return Observable.create { observer in
            let home = HomeDelivery(scheduler: homeScheduler(), observer: observer)
            let request = CompositeDisposable()
            // Refused before it takes a place in the queue: no hash, no counter, no row.
            if case .refused(let reason) = Self.precheck(username: username, password: password) {
                _ = request.insert(home.deliver(.refused(reason)))
                return request
            }
            let deliver: (LoginVerdict) -> Void = { verdict in
                if !request.isDisposed { _ = request.insert(home.deliver(verdict)) }
            }
            let check = workers.schedule(key: clientAddress, onShed: { deliver(Self.busy) }) {
                let verdict = store.authenticate(username: username, password: password, clientAddress: clientAddress)
                if case .unavailable(let reason) = verdict { onUnavailable(reason) }
                if verdict == .accepted, let onAccepted, let name = try? CredentialRules.normalizedUsername(username) {
                    onAccepted(name)
                }
                deliver(verdict)
            }
            guard let check else {
                deliver(Self.busy)
                return request
            }
            _ = request.insert(check)
            return request
        }
    }

    /// The answer when the hashing queue has no place for this client.
    private static let busy = LoginVerdict.busy(retryAfter: 1)

    /// `.refused` for credentials `CredentialRules` refuses, else `.accepted` (go on).
    private static func precheck(username: String, password: String) -> LoginVerdict {
        do {
            _ = try CredentialRules.normalizedUsername(username)
            try CredentialRules.validatePassword(password)
            return .accepted
        } catch {
            return .refused(error)
        }
    }
}

/// The observer of one request with the scheduler it is called on.
///
/// The observer is only ever called from `scheduler` (the subscribing loop), never from
/// the worker thread that carries this value there.
private struct HomeDelivery: @unchecked Sendable {  // the observer is only called on `scheduler`
    let scheduler: any ImmediateSchedulerType
    let observer: AnyObserver<Bool>

    func deliver(_ verdict: LoginVerdict) -> Disposable {
        let observer = observer
        return scheduler.schedule(verdict) { verdict in
            switch verdict {
            case .accepted:
                observer.onNext(true)
                observer.onCompleted()
            case .rejected:
                observer.onNext(false)
                observer.onCompleted()
            case .refused(let reason):
                observer.onError(LoginCheckError.invalid(reason.description))
            case .throttled(let wait):
                observer.onError(LoginCheckError.rateLimited(retryAfter: wait))
            case .unavailable:
                observer.onError(LoginCheckError.unavailable)
            case .busy(let wait):
                observer.onError(LoginCheckError.busy(retryAfter: wait))
            }
            return Disposables.create()
        }
    }
}
