import RxSwift
import Sessions
import ViewModels

/// The settings of the two forms: the login's service, its simulated delay and its tap limit.
public struct FormsSettings: Sendable {
    /// How long the simulated login request takes (the RxSwift example's: 2 s).
    public var loginDelay: Duration = .seconds(2)
    /// Login taps per session: 10 at once, then one every 2 s. `nil`: no limit.
    public var loginTapLimit: RateLimit? = RateLimit(perSecond: 0.5, burst: 10)
    /// Makes the login service of one session from its client (its address; a service
    /// that signs in announces the sign-in to it). `nil`: the RxSwift example's simulation
    /// with `loginDelay`.
    public var loginService: (@Sendable (_ client: WireClient) -> any LoginService)?

    /// The production defaults.
    public init() {}

    /// The defaults with another login delay.
    public init(loginDelay: Duration) {
        self.loginDelay = loginDelay
    }
}

/// The view models `rxlive` serves: the login and sum forms of RxSwift's MVVM example and
/// the signed-in user's welcome, each one declaration (the dashboard is the library's own).
public enum FormsCatalog {
    /// The login and sum view models with `settings`.
    public static func viewModels(_ settings: FormsSettings = FormsSettings()) -> [WireViewModel] {
        let loginService = settings.loginService
        // Made once: each session's copy of the existential shares its box.
        let simulated: any LoginService = SimulatedLoginService(delay: settings.loginDelay.rxTimeInterval)
        return [
            WireViewModel(
                name: "login",
                // The context is also made once when the inputs are declared: the service, which
                // may note its client, is asked for only by a session's transform.
                context: { client in ReportingLoginService(service: simulated, client: client) },
                transform: { reporting, input in
                    if let loginService { reporting.service = loginService(reporting.client) }
                    return LoginViewModel(service: reporting).transform(input: input)
                },
                input: { wire, reporting in
                    LoginViewModel.Input(
                        username: wire.text("username", onValue: { [reporting] in reporting.username = $0 }),
                        password: wire.text("password", secret: true, onValue: { [reporting] in reporting.password = $0 }),
                        loginTapped: wire.tap("loginTapped", limit: settings.loginTapLimit))
                },
                outputs: [
                    WireOutput("isLoginButtonEnabled", \.isLoginButtonEnabled),
                    WireOutput("loginResult", \.loginResult),
                ]),
            // Only for a signed-in session: its user is the one it greets.
            WireViewModel(
                name: "welcome",
                access: .signedIn,
                context: { client in client.user?.name ?? "" },
                transform: { user, input in WelcomeViewModel(user: user).transform(input: input) },
                input: { wire, _ in WelcomeViewModel.Input(wave: wire.tap("wave")) },
                outputs: [
                    WireOutput("greeting", \.greeting),
                    WireOutput("signedInFor", \.signedInFor),
                    WireOutput("waves", \.waves),
                ]),
            WireViewModel(
                name: "sum",
                transform: { SumViewModel().transform(input: $0) },
                input: { wire in
                    SumViewModel.Input(number1: wire.text("number1"), number2: wire.text("number2"), number3: wire.text("number3"))
                },
                outputs: [WireOutput("sum", \.sum)]),
        ]
    }
}
