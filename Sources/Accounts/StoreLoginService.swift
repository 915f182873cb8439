import RxSwift
import ViewModels

/// The login of one session against a `CredentialStore`: the check runs on a
/// `WorkerPool`, and its answer comes back on the scheduler the session subscribed from
/// (its event loop), never blocking a loop.
///
/// `true` for a match, `false` for an unknown user or a wrong password; a throttled
/// attempt fails with `LoginServiceError.rateLimited`, a database that cannot answer with
/// `LoginServiceError.unavailable`. Disposing the request before the check starts drops
/// it; disposing it later drops its answer.
public struct StoreLoginService: LoginService {
    private let store: CredentialStore
    private let workers: WorkerPool
    private let clientAddress: String
    private let homeScheduler: @Sendable () -> any ImmediateSchedulerType
    private let onUnavailable: @Sendable (String) -> Void

    /// A service for one client.
    /// - Parameters:
    ///   - clientAddress: the address failed attempts are also counted by.
    ///   - homeScheduler: called when a request is subscribed, on the subscribing thread:
    ///     the scheduler the answer is delivered on (the session's loop).
    ///   - onUnavailable: told why the database could not answer (for the log).
    public init(
        store: CredentialStore, workers: WorkerPool, clientAddress: String,
        homeScheduler: @escaping @Sendable () -> any ImmediateSchedulerType,
        onUnavailable: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.store = store
        self.workers = workers
        self.clientAddress = clientAddress
        self.homeScheduler = homeScheduler
        self.onUnavailable = onUnavailable
    }

    /// Without credentials there is nothing to accept.
    public func login() -> Observable<Bool> {
        Observable.just(false)
    }

    /// Checks `username` and `password` on the worker pool.
    public func login(username: String, password: String) -> Observable<Bool> {
        let store = store, workers = workers, clientAddress = clientAddress
        let homeScheduler = homeScheduler, onUnavailable = onUnavailable
        return Observable.create { observer in
            let home = HomeDelivery(scheduler: homeScheduler(), observer: observer)
            let request = CompositeDisposable()
            let check = workers.schedule(()) { _ in
                let verdict = store.authenticate(username: username, password: password, clientAddress: clientAddress)
                if case .unavailable(let reason) = verdict { onUnavailable(reason) }
                if !request.isDisposed {
                    _ = request.insert(home.deliver(verdict))
                }
                return Disposables.create()
            }
            _ = request.insert(check)
            return request
        }
    }
}

/// The observer of one request with the scheduler it is called on.
///
/// The observer is only ever called from `scheduler` (the subscribing loop), never from
/// the worker thread that carries this value there.
private struct HomeDelivery: @unchecked Sendable {
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
            case .throttled(let wait):
                observer.onError(LoginServiceError.rateLimited(retryAfter: wait))
            case .unavailable:
                observer.onError(LoginServiceError.unavailable)
            }
            return Disposables.create()
        }
    }
}
