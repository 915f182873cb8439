import RxSwift

/// The login screen of the RxSwift MVVM login example (from RxSwift's Chinese
/// documentation, beeth0ven.github.io/RxSwift-Chinese-Documentation): the button is enabled while both
/// fields are non-empty; a tap answers `false` at once when they are not, otherwise
/// the login request's answer; a new tap cancels a pending request.
///
/// `transform` is the example's body. The one line that differs is the simulated request:
/// the example writes `Observable.just(true).delay(.seconds(2), scheduler: MainScheduler.instance)`
/// inline, which makes the delay impossible to configure or test; here that line calls
/// `loginRequest()`, which asks the injected `LoginService`, whose default
/// (`SimulatedLoginService()`) runs exactly the example's line.
public struct LoginViewModel: ViewModelType {
    /// The example's inputs: the two text fields (`rx.text.orEmpty`) and the button (`rx.tap`).
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

    /// The example's outputs.
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

    /// A login view model whose request is `service` (default: the example's simulation).
    public init(service: any LoginService = SimulatedLoginService()) {
        self.service = service
    }

    /// The example's request line, delegated to the injected service.
    private func loginRequest() -> Observable<Bool> {
        service.login()
    }

    /// The example's `transform`, unchanged but for the request line (see the type's comment).
    public func transform(input: Input) -> Output {
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
