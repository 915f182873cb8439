import Accounts
import EventLoop
import FoundationEssentials
import Glibc
import Logging

/// Everything an RxLive app needs to serve, with the defaults a local run wants.
///
/// Filled from command-line flags and `RXLIVE_*` environment variables; a flag
/// wins over its variable, and a variable over the default.
public struct Configuration: Equatable, Sendable {
    // Each default, flag, variable and check is declared in `Settings`.

    /// Address to listen on. The loopback default keeps a developer's server private.
    public var host: String = Settings.host.defaultValue
    public var port: Int = Settings.port.defaultValue
    /// The folder of the page; `nil` until resolved by `PublicDirectory.locate`.
    public var publicDirectory: String? = Settings.publicDirectory.defaultValue
    /// How long the simulated login request takes, as the MVVM login example's `delay`.
    public var loginDelay: Duration = Settings.loginDelay.defaultValue
    public var logLevel: Logger.Level = Settings.logLevel.defaultValue
    /// Largest WebSocket message a client may send, in bytes (larger closes with 1009).
    public var maxMessageSize: Int = Settings.maxMessageSize.defaultValue
    /// Seconds between server pings on each open WebSocket, busy or idle.
    public var pingInterval: Duration = Settings.pingInterval.defaultValue
    /// Seconds to wait for a pong before the connection counts as dead.
    public var pongTimeout: Duration = Settings.pongTimeout.defaultValue
    /// Origins allowed to open a WebSocket besides the page's own (which, like clients
    /// that send no Origin, is always allowed).
    public var allowedOrigins: [String] = Settings.allowedOrigins.defaultValue
    /// Messages per second one session may send (bursts of twice that); 0 turns the
    /// limit off (benchmarks).
    public var messageRate: Double = Settings.messageRate.defaultValue
    /// PEM certificate chain and key to serve https:// and wss:// with; nil serves plain HTTP.
    public var tlsCertificate: String? = Settings.tlsCertificate.defaultValue
    public var tlsKey: String? = Settings.tlsKey.defaultValue
    /// Host names the server answers for; empty keeps the server's default (the listening
    /// address, localhost, 127.0.0.1 and [::1]).
    public var serverNames: [String] = Settings.serverNames.defaultValue
    /// What answers the login form: the account store (default) or the MVVM login example's simulation.
    public var loginService: LoginServiceKind = Settings.loginService.defaultValue
    /// Where the accounts are (`sqlite:PATH` or `postgres://…`).
    public var database: DatabaseLocation = Settings.database.defaultValue
    /// Threads that hash passwords; the default leaves one core to the event loop.
    public var loginWorkers: Int = Settings.loginWorkers.defaultValue
    /// How long a sign-in may go unused.
    public var sessionIdleTimeout: Duration = Settings.sessionIdleTimeout.defaultValue
    /// How long a sign-in lasts at most.
    public var sessionLifetime: Duration = Settings.sessionLifetime.defaultValue
    /// Proxies whose `X-Forwarded-For` is believed (exact IP addresses).
    public var trustedProxies: [String] = Settings.trustedProxies.defaultValue
    /// Seconds browsers keep to HTTPS after a response over TLS (`Strict-Transport-Security`).
    public var hstsMaxAge: Int = Settings.hstsMaxAge.defaultValue
    /// Whether `/ws/dashboard` exists: `auto` serves it on a loopback address (or with an
    /// admin token), `on` always, `off` never.
    public var dashboard: DashboardMode = Settings.dashboard.defaultValue
    /// The token a dashboard viewer must present; nil: a random one is made at start.
    public var adminToken: String? = Settings.adminToken.defaultValue
    /// Whether permessage-deflate (RFC 7692) is offered to clients that ask for it.
    public var deflate: Bool = Settings.deflate.defaultValue
    /// Whether the listening socket is opened with `SO_REUSEPORT` (processes sharing a port).
    public var reusePort: Bool = Settings.reusePort.defaultValue
    /// Event loops, one thread each; a session lives its whole life on one of them.
    public var loops: Int = Settings.loops.defaultValue
    /// Longest drain after the grace: then the connections still open are dropped.
    public var shutdownTimeout: Duration = Settings.shutdownTimeout.defaultValue
    /// How long `/healthz` answers 503 after SIGTERM while everything is still served, so an
    /// orchestrator stops routing here before the sessions close. 0: drain at once.
    public var drainGrace: Duration = Settings.drainGrace.defaultValue
    /// The folder every session is recorded into; nil records nothing.
    public var record: String? = Settings.record.defaultValue
    /// Recordings kept at most.
    public var recordMaxFiles: Int = Settings.recordMaxFiles.defaultValue
    /// Bytes of recordings kept at most.
    public var recordMaxBytes: Int = Settings.recordMaxBytes.defaultValue

    /// The defaults.
    public init() {}

    /// The configuration the `RXLIVE_*` variables of `environment` describe, with the page
    /// folder found as the command line finds it: for an app that runs `RxLiveService` itself.
    /// - Throws: `ConfigurationError` naming the variable whose value cannot be used.
    public init(environment: [String: String]) throws {
        try self.init(flags: GivenFlags(), environment: environment)
        publicDirectory = try PublicDirectory.locate(given: publicDirectory)
    }
}

/// What answers the login form.
public enum LoginServiceKind: String, Equatable, Sendable, CaseIterable {
    /// Accounts in `--database`, passwords hashed with argon2id.
    case store
    /// The MVVM login example's simulation: `true` after `--login-delay` for any filled-in form.
    case simulated
}

/// Where the accounts are kept.
public enum DatabaseLocation: Equatable, Sendable, CustomStringConvertible {
    /// A local SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL server, as a libpq connection URI.
    case postgres(uri: String)

    /// Reads `sqlite:PATH`, `postgres://…` or `postgresql://…`.
    init?(_ text: String) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { return nil }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(uri: text)
        } else {
            return nil
        }
    }

    /// The location `text` names; refused in words that never repeat it, as it may hold a
    /// password: a value not recognised, or a URI libpq cannot read (libpq's reason without
    /// the token it quotes).
    static func read(_ text: String) throws(SettingProblem) -> DatabaseLocation {
        let notRepeated = "(the value is not repeated here: it may hold a password)"
        guard let location = DatabaseLocation(text) else {
            let lowered = text.lowercased()
            if ["sqlite:", "postgres://", "postgresql://"].contains(where: { lowered.hasPrefix($0) }) {
                throw SettingProblem(message: "write the scheme in lower case: sqlite:PATH, postgres://… or postgresql://… \(notRepeated)")
            }
            if !text.contains("://") && text.contains("=") {
                throw SettingProblem(message: "a keyword=value connection string is not accepted; give a postgres://… URI \(notRepeated)")
            }
            throw SettingProblem(message: "not a database: give sqlite:PATH or postgres://… \(notRepeated)")
        }
        if case .postgres(let uri) = location, let problem = PostgresURIReading.problem(uri) {
            throw SettingProblem(message: "libpq cannot read this PostgreSQL URI: \(problem) \(notRepeated)")
        }
        return location
    }

    /// The location with any password in a PostgreSQL URI hidden (userinfo and query, in
    /// any order), for logs and messages.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let uri): return DatabaseURIMasking.masked(uri)
        }
    }
}

/// When the dashboard is served (`--dashboard`).
public enum DashboardMode: String, CaseIterable, Sendable {
    case auto, on, off
}

/// A configuration value that cannot be used, reported in one line.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// What is wrong, in one line.
    public let description: String
}

extension Configuration {
    /// Builds a configuration from flags over environment over defaults, setting by setting
    /// in the order of `Settings.all`.
    ///
    /// - Throws: `ConfigurationError` naming the flag or variable whose value is unusable.
    init(flags: GivenFlags, environment: [String: String]) throws(ConfigurationError) {
        self.init()
        for setting in Settings.all {
            if let given = setting.given(flags: flags, environment: environment) {
                try setting.apply(given, to: &self)
            }
        }
        if (tlsCertificate ?? "").isEmpty != (tlsKey ?? "").isEmpty {
            let (certificate, key) = (Settings.tlsCertificate, Settings.tlsKey)
            throw ConfigurationError(description: "--\(certificate.flag) and --\(key.flag) "
                                     + "(\(certificate.variable), \(key.variable)) go together: give both or neither")
        }
        // Both empty: plain HTTP, as with neither.
        if tlsCertificate?.isEmpty == true { (tlsCertificate, tlsKey) = (nil, nil) }
    }
}

extension Configuration {
    /// Whether the dashboard is served: `auto` serves it when only this machine can reach
    /// the server (a loopback host) or when an admin token was given.
    var servesDashboard: Bool {
        switch dashboard {
        case .on: true
        case .off: false
        case .auto: adminToken != nil || Self.isLoopback(host)
        }
    }

    /// `localhost`, an address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
