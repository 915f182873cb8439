import EventLoop
import Foundation
import Logging

/// Everything `rxlive` needs to serve, with the defaults a local run wants.
///
/// Filled from command-line flags and `RXLIVE_*` environment variables; a flag
/// wins over its variable, and a variable over the default.
struct Configuration: Equatable, Sendable {
    /// Address to listen on. The loopback default keeps a developer's server private.
    var host = "127.0.0.1"
    var port = 8080
    /// The folder of the page; `nil` until resolved by `PublicDirectory.locate`.
    var publicDirectory: String?
    /// How long the simulated login request takes, as the seed view model's `delay`.
    var loginDelay: Duration = .seconds(2)
    var logLevel: Logger.Level = .info
    /// Largest WebSocket message a client may send, in bytes (larger closes with 1009).
    var maxMessageSize = 65536
    /// Seconds between server pings on an idle WebSocket.
    var pingInterval: Duration = .seconds(30)
    /// Seconds to wait for a pong before the connection counts as dead.
    var pongTimeout: Duration = .seconds(15)
    /// Origins allowed to open a WebSocket; empty keeps the server's default
    /// (its own host, and clients that send no Origin).
    var allowedOrigins: [String] = []
    /// Messages per second one session may send (bursts of twice that); 0 turns the
    /// limit off (benchmarks).
    var messageRate: Double = 100
    /// Event loops, one thread each; a session lives its whole life on one of them.
    var loops = EventLoopGroup.processorCount
    /// Longest drain after the grace: then the connections still open are dropped.
    var shutdownTimeout: Duration = .seconds(5)
    /// How long `/healthz` answers 503 after SIGTERM while everything is still served, so an
    /// orchestrator stops routing here before the sessions close. 0: drain at once.
    var drainGrace: Duration = .zero
}

/// A configuration value that cannot be used, reported in one line.
struct ConfigurationError: Error, CustomStringConvertible {
    let description: String
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
