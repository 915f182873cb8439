import Accounts
import EventLoop
import Foundation
import Logging

/// Everything an RxLive app needs to serve, with the defaults a local run wants.
///
/// Filled from command-line flags and `RXLIVE_*` environment variables; a flag
/// wins over its variable, and a variable over the default.
public struct Configuration: Equatable, Sendable {
    /// Address to listen on. The loopback default keeps a developer's server private.
    public var host = "127.0.0.1"
    public var port = 8080
    /// The folder of the page; `nil` until resolved by `PublicDirectory.locate`.
    public var publicDirectory: String?
    /// How long the simulated login request takes, as the seed view model's `delay`.
    public var loginDelay: Duration = .seconds(2)
    public var logLevel: Logger.Level = .info
    /// Largest WebSocket message a client may send, in bytes (larger closes with 1009).
    public var maxMessageSize = 65536
    /// Seconds between server pings on an idle WebSocket.
    public var pingInterval: Duration = .seconds(30)
    /// Seconds to wait for a pong before the connection counts as dead.
    public var pongTimeout: Duration = .seconds(15)
    /// Origins allowed to open a WebSocket besides the page's own (which, like clients
    /// that send no Origin, is always allowed).
    public var allowedOrigins: [String] = []
    /// Messages per second one session may send (bursts of twice that); 0 turns the
    /// limit off (benchmarks).
    public var messageRate: Double = 100
    /// PEM certificate chain and key to serve https:// and wss:// with; nil serves plain HTTP.
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// Host names the server answers for; empty keeps the server's default (the listening
    /// address, localhost, 127.0.0.1 and [::1]).
    public var serverNames: [String] = []
    /// What answers the login form: the account store (default) or the seed's simulation.
    public var loginService: LoginServiceKind = .store
    /// Where the accounts are (`sqlite:PATH` or `postgres://…`).
    public var database: DatabaseLocation = .sqlite(path: "data/rxlive.sqlite")
    /// Threads that hash passwords; the default leaves one core to the event loop.
    public var loginWorkers = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    /// Proxies whose `X-Forwarded-For` is believed (exact IP addresses).
    public var trustedProxies: [String] = []
    /// Whether `/ws/dashboard` exists: `auto` serves it on a loopback address (or with an
    /// admin token), `on` always, `off` never.
    public var dashboard: DashboardMode = .auto
    /// The token a dashboard viewer must present; nil: a random one is made at start.
    public var adminToken: String?
    /// Whether permessage-deflate (RFC 7692) is offered to clients that ask for it.
    public var deflate = true
    /// Event loops, one thread each; a session lives its whole life on one of them.
    public var loops = EventLoopGroup.processorCount
    /// Longest drain after the grace: then the connections still open are dropped.
    public var shutdownTimeout: Duration = .seconds(5)
    /// How long `/healthz` answers 503 after SIGTERM while everything is still served, so an
    /// orchestrator stops routing here before the sessions close. 0: drain at once.
    public var drainGrace: Duration = .zero

    /// The defaults.
    public init() {}

    /// The configuration the `RXLIVE_*` variables of `environment` describe, with the page
    /// folder found as the command line finds it: for an app that runs `RxLiveService` itself.
    /// - Throws: `ConfigurationError` naming the variable whose value cannot be used.
    public init(environment: [String: String]) throws {
        try self.init(flags: Overrides(), environment: environment)
        publicDirectory = try PublicDirectory.locate(given: publicDirectory)
    }
}

/// What answers the login form.
public enum LoginServiceKind: String, Equatable, Sendable, CaseIterable {
    /// Accounts in `--database`, passwords hashed with argon2id.
    case store
    /// The seed's simulation: `true` after `--login-delay` for any filled-in form.
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
    /// Environment variables read, by configuration key.
    enum Variable: String, CaseIterable {
        case host = "RXLIVE_HOST"
        case port = "RXLIVE_PORT"
        case publicDirectory = "RXLIVE_PUBLIC"
        case loginDelay = "RXLIVE_LOGIN_DELAY"
        case logLevel = "RXLIVE_LOG_LEVEL"
        case maxMessageSize = "RXLIVE_MAX_MESSAGE_SIZE"
        case pingInterval = "RXLIVE_PING_INTERVAL"
        case pongTimeout = "RXLIVE_PONG_TIMEOUT"
        case allowedOrigins = "RXLIVE_ALLOWED_ORIGINS"
        case messageRate = "RXLIVE_MESSAGE_RATE"
        case tlsCertificate = "RXLIVE_TLS_CERT"
        case tlsKey = "RXLIVE_TLS_KEY"
        case serverNames = "RXLIVE_SERVER_NAMES"
        case loginService = "RXLIVE_LOGIN_SERVICE"
        case database = "RXLIVE_DATABASE"
        case loginWorkers = "RXLIVE_LOGIN_WORKERS"
        case trustedProxies = "RXLIVE_TRUSTED_PROXIES"
        case dashboard = "RXLIVE_DASHBOARD"
        case adminToken = "RXLIVE_ADMIN_TOKEN"
        case deflate = "RXLIVE_DEFLATE"
        case loops = "RXLIVE_LOOPS"
        case shutdownTimeout = "RXLIVE_SHUTDOWN_TIMEOUT"
        case drainGrace = "RXLIVE_DRAIN_GRACE"
    }

    /// The raw text of each setting as given on the command line (nil when absent).
    struct Overrides {
        var host: String?
        var port: String?
        var publicDirectory: String?
        var loginDelay: String?
        var logLevel: String?
        var maxMessageSize: String?
        var pingInterval: String?
        var pongTimeout: String?
        var allowedOrigins: [String] = []
        var messageRate: String?
        var tlsCertificate: String?
        var tlsKey: String?
        var serverNames: [String] = []
        var loginService: String?
        var database: String?
        var loginWorkers: String?
        var trustedProxies: [String] = []
        var dashboard: String?
        var adminToken: String?
        var deflate: String?
        var loops: String?
        var shutdownTimeout: String?
        var drainGrace: String?
    }

    /// Builds a configuration from flags over environment over defaults.
    ///
    /// - Throws: `ConfigurationError` naming the flag or variable whose value is unusable.
    init(flags: Overrides, environment: [String: String]) throws {
        self.init()
        // A flag's value, or its variable's, each labelled for the error message.
        func value(_ flag: String?, _ name: String, _ variable: Variable) -> (text: String, source: String)? {
            if let flag { return (flag, "--\(name)") }
            if let text = environment[variable.rawValue] { return (text, variable.rawValue) }
            return nil
        }

        if let (text, source) = value(flags.host, "host", .host) {
            guard !text.isEmpty else { throw ConfigurationError(description: "\(source): the host must not be empty") }
            host = text
        }
        if let given = value(flags.port, "port", .port) {
            port = try Self.integer(given, in: 1...65535)
        }
        if let (text, source) = value(flags.publicDirectory, "public", .publicDirectory) {
            guard !text.isEmpty else { throw ConfigurationError(description: "\(source): the folder must not be empty") }
            publicDirectory = text
        }
        if let given = value(flags.loginDelay, "login-delay", .loginDelay) {
            loginDelay = try Self.seconds(given, allowZero: true)
        }
        if let (text, source) = value(flags.logLevel, "log-level", .logLevel) {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError(description: "\(source): '\(text)' is not a log level (\(names))")
            }
            logLevel = level
        }
        if let given = value(flags.maxMessageSize, "max-message-size", .maxMessageSize) {
            maxMessageSize = try Self.integer(given, in: 125...(64 << 20))
        }
        if let given = value(flags.pingInterval, "ping-interval", .pingInterval) {
            pingInterval = try Self.seconds(given, allowZero: false)
        }
        if let given = value(flags.pongTimeout, "pong-timeout", .pongTimeout) {
            pongTimeout = try Self.seconds(given, allowZero: false)
        }
        if let given = value(flags.messageRate, "message-rate", .messageRate) {
            guard let rate = Double(given.text), rate.isFinite, rate >= 0, rate <= 1_000_000 else {
                throw ConfigurationError(
                    description: "\(given.source): '\(given.text)' is not a number of messages per second (0 to 1000000)")
            }
            messageRate = rate
        }
        if let (text, source) = value(flags.loginService, "login-service", .loginService) {
            guard let kind = LoginServiceKind(rawValue: text) else {
                throw ConfigurationError(description: "\(source): '\(text)' is not a login service (store or simulated)")
            }
            loginService = kind
        }
        if let (text, source) = value(flags.database, "database", .database) {
            guard let location = DatabaseLocation(text) else {
                throw ConfigurationError(description: "\(source): '\(text)' is not a database (sqlite:PATH or postgres://…)")
            }
            database = location
        }
        if let given = value(flags.loginWorkers, "login-workers", .loginWorkers) {
            loginWorkers = try Self.integer(given, in: 1...64)
        }
        if !flags.trustedProxies.isEmpty {
            trustedProxies = flags.trustedProxies
        } else if let text = environment[Variable.trustedProxies.rawValue] {
            trustedProxies = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let (text, source) = value(flags.dashboard, "dashboard", .dashboard) {
            guard let mode = DashboardMode(rawValue: text.lowercased()) else {
                throw ConfigurationError(description: "\(source): '\(text)' is not auto, on or off")
            }
            dashboard = mode
        }
        if let (text, source) = value(flags.adminToken, "admin-token", .adminToken) {
            // URL-safe characters only: the page passes the token in the WebSocket URL as it is.
            let urlSafe = text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
            }
            guard text.utf8.count >= 16, urlSafe else {
                throw ConfigurationError(
                    description: "\(source): an admin token needs at least 16 characters, each a letter, a digit, '-', '_', '.' or '~'")
            }
            adminToken = text
        }
        if let given = value(flags.deflate, "deflate", .deflate) {
            switch given.text.lowercased() {
            case "on": deflate = true
            case "off": deflate = false
            default: throw ConfigurationError(description: "\(given.source): '\(given.text)' is not on or off")
            }
        }
        if let given = value(flags.loops, "loops", .loops) {
            loops = try Self.integer(given, in: 1...256)
        }
        if let given = value(flags.shutdownTimeout, "shutdown-timeout", .shutdownTimeout) {
            shutdownTimeout = try Self.seconds(given, allowZero: false)
        }
        if let given = value(flags.drainGrace, "drain-grace", .drainGrace) {
            drainGrace = try Self.seconds(given, allowZero: true)
        }
        if !flags.allowedOrigins.isEmpty {
            allowedOrigins = flags.allowedOrigins
        } else if let text = environment[Variable.allowedOrigins.rawValue] {
            allowedOrigins = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        tlsCertificate = value(flags.tlsCertificate, "tls-cert", .tlsCertificate)?.text
        tlsKey = value(flags.tlsKey, "tls-key", .tlsKey)?.text
        if (tlsCertificate ?? "").isEmpty != (tlsKey ?? "").isEmpty {
            throw ConfigurationError(description: "--tls-cert and --tls-key (RXLIVE_TLS_CERT, RXLIVE_TLS_KEY) go together: give both or neither")
        }
        if tlsCertificate?.isEmpty == true { (tlsCertificate, tlsKey) = (nil, nil) }
        if !flags.serverNames.isEmpty {
            serverNames = flags.serverNames
        } else if let text = environment[Variable.serverNames.rawValue] {
            serverNames = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let bad = serverNames.first(where: { $0.isEmpty || $0.contains("/") || $0.contains(where: \.isWhitespace) }) {
            throw ConfigurationError(description: "--server-name: '\(bad)' is not a host name")
        }
    }

    private static func integer(_ given: (text: String, source: String), in range: ClosedRange<Int>) throws -> Int {
        guard let number = Int(given.text), range.contains(number) else {
            throw ConfigurationError(
                description: "\(given.source): '\(given.text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private static func seconds(_ given: (text: String, source: String), allowZero: Bool) throws -> Duration {
        // At most a day: enough for any delay or timeout, and far from overflow.
        guard let seconds = Double(given.text), seconds.isFinite, seconds <= 86_400,
              allowZero ? seconds >= 0 : seconds > 0
        else {
            let bound = allowZero ? "0" : "above 0"
            throw ConfigurationError(
                description: "\(given.source): '\(given.text)' is not a number of seconds (\(bound), at most 86400)")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
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
