import RxSwift
import Sessions
import ViewModels

/// A session's login service: the MVVM login example's `loginRequest()` takes no arguments, so this asks
/// the real service with the credentials the session's inputs last carried (recorded by
/// the `onValue` of the login form's text inputs in `FormsCatalog`, just before each value
/// reaches `transform`). Its failures become error
/// messages to the session instead of ending the `loginResult` stream: a
/// `LoginServiceError` is sent as `login_unavailable`, `rate_limited` or `busy` (the
/// last two with `retryAfter`), and that tap gets no `loginResult`; the next tap is
/// answered as usual.
///
/// One object per session, the credentials in it: the view model keeps it as its
/// `any LoginService` by reference, where a struct of the service, the client and a
/// credentials object took that object and a box for the existential (two allocations).
final class ReportingLoginService: LoginService {
    /// The service asked: set by the session's transform, before any request.
    @exclusivity(unchecked) var service: any LoginService
    let client: WireClient
    // The username and password the session's inputs last carried: written by the input
    // bindings and read when the view model asks for a login, both on the session's loop
    // thread, and never borrowed across a call (no dynamic exclusivity check).
    @exclusivity(unchecked) var username = ""
    @exclusivity(unchecked) var password = ""

    init(service: any LoginService, client: WireClient) {
        self.service = service
        self.client = client
    }

    /// The request with the credentials read when it is made: its closure captures this object
    /// alone, so it takes no allocation of its own (a tap made one for the two strings).
    func login() -> Observable<Bool> {
        reporting(client.answers("login", failing: LoginServiceError.self, self.requestWithCurrentCredentials()))
    }

    private func requestWithCurrentCredentials() -> Observable<Bool> {
        service.login(username: username, password: password)
    }

    /// The service's answer, kept by a recording (`--record`) and played back by a replay,
    /// which then needs no password.
    func login(username: String, password: String) -> Observable<Bool> {
        reporting(client.answers("login", failing: LoginServiceError.self, self.service.login(username: username, password: password)))
    }

    private func reporting(_ request: Observable<Bool>) -> Observable<Bool> {
        return request.catch { [client] error in
            guard let failure = error as? LoginServiceError else { return Observable.error(error) }
            client.refuse(Self.protocolError(failure))
            return Observable.empty()
        }
    }

    static func protocolError(_ failure: LoginServiceError) -> ProtocolError {
        switch failure {
        case .unavailable:
            return ProtocolError(.loginUnavailable, "the login service is unavailable; try again later")
        case .rateLimited(let wait):
            let seconds = wholeSeconds(wait)
            return ProtocolError(.rateLimited, "too many failed logins; try again in \(seconds) s", retryAfter: seconds)
        case .busy(let wait):
            let seconds = wholeSeconds(wait)
            return ProtocolError(.busy, "the server is busy checking other logins; try again in \(seconds) s", retryAfter: seconds)
        case .invalidCredentials(let reason):
            return ProtocolError(.badValue, reason)
        }
    }

    /// A wait as the whole seconds `retryAfter` carries: rounded up, at least 1.
    private static func wholeSeconds(_ wait: Double) -> Int {
        max(1, Int(wait.rounded(.up)))
    }
}
