import RxSwift
import ViewModels

/// Every view model served on the wire. A new one is a few lines here: its name, how
/// to make it, its inputs and its outputs.
public enum WireCatalog {
    /// The view models with their settings from `configuration`; the dashboard reads `monitor`.
    public static func viewModels(_ configuration: SessionConfiguration, monitor: SessionMonitor = SessionMonitor()) -> [WireViewModel] {
        let loginDelay = configuration.loginDelay.rxTimeInterval
        let loginTapLimit = configuration.loginTapLimit
        let loginService = configuration.loginService
        return [
            WireViewModel(
                name: "login",
                context: { client in (client: client, credentials: LoginCredentials()) },
                viewModel: { session in
                    let service: any LoginService = loginService?(session.client.address) ?? SimulatedLoginService(delay: loginDelay)
                    return LoginViewModel(service: ReportingLoginService(
                        service: service, client: session.client, credentials: session.credentials))
                },
                input: { wire, session in
                    LoginViewModel.Input(
                        username: wire.text("username").do(onNext: { session.credentials.username = $0 }),
                        password: wire.text("password", secret: true).do(onNext: { session.credentials.password = $0 }),
                        loginTapped: wire.tap("loginTapped", limit: loginTapLimit))
                },
                outputs: [
                    WireOutput("isLoginButtonEnabled", \.isLoginButtonEnabled),
                    WireOutput("loginResult", \.loginResult),
                ]),
            WireViewModel(
                name: "sum",
                viewModel: { SumViewModel() },
                input: { wire in
                    SumViewModel.Input(number1: wire.text("number1"), number2: wire.text("number2"), number3: wire.text("number3"))
                },
                outputs: [WireOutput("sum", \.sum)]),
            WireViewModel(
                name: "dashboard",
                access: .adminToken,
                viewModel: { DashboardViewModel(stats: monitor.stats, watchSession: monitor.registry.watch) },
                input: { wire in DashboardViewModel.Input(watchSession: wire.text("watchSession")) },
                outputs: [WireOutput("stats", \.stats), WireOutput("watch", \.watch)]),
        ]
    }
}
