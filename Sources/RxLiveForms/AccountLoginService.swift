import Accounts
import RxSwift
import ViewModels

/// The login form's `LoginService` on RxLive's accounts: the account store's check, its
/// failures as the view model's `LoginServiceError`s.
public struct AccountLoginService: LoginService {
    private let accounts: StoreLoginService

    /// The service that checks with `accounts`.
    public init(_ accounts: StoreLoginService) {
        self.accounts = accounts
    }

    /// Without credentials there is nothing to accept.
    public func login() -> Observable<Bool> {
        Observable.just(false)
    }

    /// Checks `username` and `password` against the accounts.
    public func login(username: String, password: String) -> Observable<Bool> {
        accounts.login(username: username, password: password).catch { error in
            switch error as? LoginCheckError {
            case .unavailable?: return Observable.error(LoginServiceError.unavailable)
            case .rateLimited(let wait)?: return Observable.error(LoginServiceError.rateLimited(retryAfter: wait))
            case .busy(let wait)?: return Observable.error(LoginServiceError.busy(retryAfter: wait))
            case .invalid(let reason)?: return Observable.error(LoginServiceError.invalidCredentials(reason))
            case nil: return Observable.error(error)
            }
        }
    }
}
