import Accounts
import Metrics
import Prometheus
import Sessions
import Synchronization

/// An app served by RxLive: its name and its view models. `main()` runs the command line
/// every RxLive server has (the flags and `RXLIVE_*` variables of `rxlive --help`), serves
/// the page folder and the view models' sessions, and drains on SIGTERM.
///
///     @main
///     enum SignUpServer {
///         static func main() {
///             RxLiveApp(name: "signup", abstract: "The sign-up form.") { _ in
///                 [WireViewModel(name: "signup", transform: { SignUpViewModel().transform(input: $0) },
///                                input: { wire in ... }, outputs: [...])]
///             }.main()
///         }
///     }
public struct RxLiveApp: Sendable {
    /// The command's name, in usage lines, logs and `--version`.
    public var name: String
    /// One line on what the server serves, for `--help`.
    public var abstract: String
    /// What `--version` prints.
    public var version: String
    /// Whether the app checks logins against accounts: adds `--login-service`, `--database`,
    /// `--login-workers` to its use and the `user add|remove|list` command, and gives the
    /// view models `RxLiveContext.accounts`.
    public var accounts: Bool
    /// The view models to serve, each on `/ws/<name>`, made once at start from the context.
    public var viewModels: @Sendable (RxLiveContext) -> [WireViewModel]
    /// The headers that confine the app's pages in the browser (docs/SECURITY.md): the strict
    /// ones unless the app needs more, say `.strict` with a `contentSecurityPolicy` allowing
    /// another `connect-src`. `--hsts-max-age` sets HSTS's max-age unless this leaves it out.
    public var securityHeaders: SecurityHeaders
    /// How `replay --rxtest` names the view models in the test it writes: the modules to
    /// import and the expression of the declarations (flags `--import`, `--declarations`
    /// override it).
    public var rxtest = RxTestExport(imports: [], declarations: "[WireViewModel]()")

    /// An app named `name` serving what `viewModels` declares.
    public init(
        name: String, abstract: String, version: String = "0.1.0", accounts: Bool = false,
        securityHeaders: SecurityHeaders = .strict,
        viewModels: @escaping @Sendable (RxLiveContext) -> [WireViewModel]
    ) {
        self.name = name
        self.abstract = abstract
        self.version = version
        self.accounts = accounts
        self.securityHeaders = securityHeaders
        self.viewModels = viewModels
    }

    /// Parses the command line and the environment, serves until SIGTERM or SIGINT, and exits:
    /// 0 after a drain, 2 with one line on standard error for a bad value or a port in use.
    ///
    /// It bootstraps swift-metrics (re-exported by `import RxLive`) with `metricsRegistry`, so
    /// what the app records through it (`Counter(label:)`, `Metrics.Timer(label:)`, …) is on
    /// `/metrics` beside the sessions' counters; an app that serves with RxLive does not
    /// bootstrap its own, and makes its instruments after this call (in `viewModels`).
    public func main() -> Never {
        TerminationSignals.hold()
        RxLiveApp.running.withLock { $0 = self }
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: RxLiveApp.metricsRegistry))
        RxLiveMain.main()
    }

    /// The registry `/metrics` shows.
    public static let metricsRegistry = PrometheusCollectorRegistry()

    /// The app `main()` runs, read by the command's static configuration.
    static let running = Mutex(RxLiveApp(name: "rxlive", abstract: "", viewModels: { _ in [] }))

    static var current: RxLiveApp { running.withLock { $0 } }
}

/// What an app's view models are made with.
public struct RxLiveContext: Sendable {
    /// The server's settings, from flags, variables and defaults.
    public let configuration: Configuration
    /// The account store's login check for one client address, when the app uses accounts
    /// and `--login-service` is `store`; `nil` otherwise.
    public let accounts: (@Sendable (_ clientAddress: String) -> StoreLoginService)?
    /// The same check for one session that also signs its client in: a right password sends
    /// the session `{"signIn":…}` with a hand-over code for the session cookie (PROTOCOL.md,
    /// "Signing in"). `nil` when `accounts` is.
    public let signingIn: (@Sendable (_ client: WireClient) -> StoreLoginService)?
}
