import Rx

/// The seed's login screen (`000_…` in the seeds): the button is enabled while both
/// fields are non-empty; a tap answers `false` at once when they are not, otherwise
/// the login request's answer; a new tap cancels a pending request.
///
/// `transform` is the seed's body. The one line that differs is the simulated request:
/// the seed writes `Observable.just(true).delay(.seconds(2), scheduler: MainScheduler.instance)`
/// inline, which makes the delay impossible to configure or test; here that line calls
/// `loginRequest()`, which asks the injected `LoginService`, whose default
/// (`SimulatedLoginService()`) runs exactly the seed's line.
///
/// The seed's request takes no arguments, but a real service must see the credentials:
/// `transform` first records the latest username and password as they flow into the
/// seed's code (`LatestCredentials`), and `loginRequest()` hands them to the service.
/// Both are read at the same tap, so the request checks exactly the values that made
/// `credentialsValid` true.
public struct LoginViewModel: ViewModelType {
    /// The seed's inputs: the two text fields (`rx.text.orEmpty`) and the button (`rx.tap`).
    public struct Input {
        public let username: Observable<String>
        public let password: Observable<String>
        public let loginTapped: Observable<Void>

        /// Creates the inputs.
        public init(username: Observable<String>, password: Observable<String>, loginTapped: Observable<Void>) {
            self.username = username
            self.password = password
            self.loginTapped = loginTapped
        }
    }

    /// The seed's outputs.
    public struct Output {
        /// Whether the login button is enabled.
        public let isLoginButtonEnabled: Observable<Bool>
        /// The answer to each tap (only the latest tap answers).
        public let loginResult: Observable<Bool>

        /// Creates the outputs.
        public init(isLoginButtonEnabled: Observable<Bool>, loginResult: Observable<Bool>) {
            self.isLoginButtonEnabled = isLoginButtonEnabled
            self.loginResult = loginResult
        }
    }

    private let service: any LoginService

    /// A login view model whose request is `service` (default: the seed's simulation).
    public init(service: any LoginService = SimulatedLoginService()) {
        self.service = service
    }

    /// The seed's request line, delegated to the injected service with the latest credentials.
    private func loginRequest(_ credentials: LatestCredentials) -> Observable<Bool> {
        service.login(username: credentials.username, password: credentials.password)
    }

    /// The seed's `transform`, unchanged but for the request line (see the type's comment).
    public func transform(input: Input) -> Output {
        let latest = LatestCredentials()
        let input = latest.recording(input)
        func loginRequest() -> Observable<Bool> { self.loginRequest(latest) }

        let credentialsValid = Observable.combineLatest(input.username, input.password) { username, password in
            return !username.isEmpty && !password.isEmpty
        }

        let isLoginButtonEnabled = credentialsValid

        let loginResult = input.loginTapped.withLatestFrom(credentialsValid)
            .flatMapLatest { valid -> Observable<Bool> in
                guard valid else { return Observable.just(false) }
                // 模拟登录请求 (simulated login request: the injected service, by default
                // `Observable.just(true).delay(.seconds(2), scheduler: MainScheduler.instance)`)
                return loginRequest()
            }

        return Output(isLoginButtonEnabled: isLoginButtonEnabled, loginResult: loginResult)
    }
}

/// The username and password most recently seen by one run of `transform`.
///
/// Each session runs `transform` once, and its inputs arrive on that session's loop, so the
/// two fields are written and read on one thread.
private final class LatestCredentials {
    var username = ""
    var password = ""

    /// `input` with its text fields recorded here as they pass.
    func recording(_ input: LoginViewModel.Input) -> LoginViewModel.Input {
        LoginViewModel.Input(
            username: input.username.do(onNext: { self.username = $0 }),
            password: input.password.do(onNext: { self.password = $0 }),
            loginTapped: input.loginTapped)
    }
}
