import ArgumentParser
import Foundation
import Logging

/// The command line of an RxLive app (`rxlive` is one): serves the page folder and the
/// app's WebSocket view-model sessions.
///
/// Every option can also come from an environment variable; the flag wins.
/// Bad values and a port already in use end the process with one line on
/// standard error and exit code 2.
struct RxLiveCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        let app = RxLiveApp.current
        return CommandConfiguration(
            commandName: app.name,
            abstract: app.abstract,
            discussion: """
                Each option can also be set by the environment variable named in its help; \
                a flag wins over its variable. SIGTERM or SIGINT drains the sessions and exits 0: \
                /healthz answers 503 for the drain grace, then the server stops accepting and closes \
                every session with 1001, and exits within the shutdown timeout after that.
                """,
            version: app.version,
            subcommands: app.accounts ? [UserCommand.self] : []
        )
    }

    @Option(help: ArgumentHelp("Address to listen on (default 127.0.0.1; env RXLIVE_HOST).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("TCP port to listen on (default 8080; env RXLIVE_PORT).", valueName: "port"))
    var port: String?

    @Option(name: .customLong("public"),
            help: ArgumentHelp("Folder of the page (default Public/ in the working directory or beside the executable; env RXLIVE_PUBLIC).",
                               valueName: "folder"))
    var publicDirectory: String?

    @Option(help: ArgumentHelp("Seconds the simulated login request takes (default 2; env RXLIVE_LOGIN_DELAY).",
                               valueName: "seconds", visibility: Self.accountsVisibility))
    var loginDelay: String?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical (default info; env RXLIVE_LOG_LEVEL).",
                               valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp("Largest WebSocket message accepted (default 65536; env RXLIVE_MAX_MESSAGE_SIZE).",
                               valueName: "bytes"))
    var maxMessageSize: String?

    @Option(help: ArgumentHelp("Seconds between pings on an idle WebSocket (default 30; env RXLIVE_PING_INTERVAL).",
                               valueName: "seconds"))
    var pingInterval: String?

    @Option(help: ArgumentHelp("Seconds to wait for a pong before closing (default 15; env RXLIVE_PONG_TIMEOUT).",
                               valueName: "seconds"))
    var pongTimeout: String?

    @Option(name: .customLong("allowed-origin"),
            help: ArgumentHelp(
                "An Origin allowed to open a WebSocket besides the page's own; repeat for more (the page's own origin and clients that send no Origin are always allowed; env RXLIVE_ALLOWED_ORIGINS, comma-separated).",
                valueName: "origin"))
    var allowedOrigins: [String] = []

    @Option(help: ArgumentHelp("Messages per second one session may send, in bursts of twice that; 0 for no limit (default 100; env RXLIVE_MESSAGE_RATE).",
                               valueName: "rate"))
    var messageRate: String?

    @Option(name: .customLong("tls-cert"),
            help: ArgumentHelp("PEM certificate chain to serve https:// and wss:// with, together with --tls-key; SIGHUP reloads both (env RXLIVE_TLS_CERT).",
                               valueName: "path"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"),
            help: ArgumentHelp("PEM private key of --tls-cert, readable by its owner only (env RXLIVE_TLS_KEY).", valueName: "path"))
    var tlsKey: String?

    @Option(name: .customLong("server-name"),
            help: ArgumentHelp(
                "A host name this server answers for; repeat for more; other Host headers get 421 (default: the listening address, localhost, 127.0.0.1 and [::1]; env RXLIVE_SERVER_NAMES, comma-separated).",
                valueName: "name"))
    var serverNames: [String] = []

    @Option(help: ArgumentHelp("What answers the login form: store (accounts in --database) or simulated (the seed's: true after --login-delay) (default store; env RXLIVE_LOGIN_SERVICE).",
                               valueName: "service", visibility: Self.accountsVisibility))
    var loginService: String?

    @Option(help: ArgumentHelp("Where the accounts are: sqlite:PATH or postgres://… (default sqlite:data/rxlive.sqlite; env RXLIVE_DATABASE).",
                               valueName: "database", visibility: Self.accountsVisibility))
    var database: String?

    @Option(help: ArgumentHelp("Threads that hash passwords (default: cores - 1, at least 1; env RXLIVE_LOGIN_WORKERS).",
                               valueName: "threads", visibility: Self.accountsVisibility))
    var loginWorkers: String?

    @Option(name: .customLong("trusted-proxy"),
            help: ArgumentHelp("A proxy address whose X-Forwarded-For names the client; repeat for more (default none; env RXLIVE_TRUSTED_PROXIES, comma-separated).",
                               valueName: "address"))
    var trustedProxies: [String] = []

    @Option(help: ArgumentHelp("When to serve /dashboard's data: auto (on a loopback address or with an admin token), on or off (default auto; env RXLIVE_DASHBOARD).",
                               valueName: "mode"))
    var dashboard: String?

    @Option(help: ArgumentHelp("Token a dashboard viewer must present, 16+ URL-safe characters (default: a random one, logged at start; env RXLIVE_ADMIN_TOKEN).",
                               valueName: "token"))
    var adminToken: String?

    @Option(help: ArgumentHelp("permessage-deflate compression for clients that offer it: on or off (default on; env RXLIVE_DEFLATE).",
                               valueName: "on|off"))
    var deflate: String?

    @Option(help: ArgumentHelp("Event loops, one thread each (default: one per processor; env RXLIVE_LOOPS).",
                               valueName: "count"))
    var loops: String?

    @Option(help: ArgumentHelp("Seconds the drain may take before open connections are dropped (default 5; env RXLIVE_SHUTDOWN_TIMEOUT).",
                               valueName: "seconds"))
    var shutdownTimeout: String?

    @Option(help: ArgumentHelp("Seconds /healthz answers 503 after SIGTERM while still serving, before the drain (default 0; env RXLIVE_DRAIN_GRACE).",
                               valueName: "seconds"))
    var drainGrace: String?

    /// The accounts' options are shown only by apps that use accounts.
    private static var accountsVisibility: ArgumentVisibility { RxLiveApp.current.accounts ? .default : .private }

    /// The configuration these flags and the process environment describe.
    func resolvedConfiguration(environment: [String: String]) throws -> Configuration {
        let flags = Configuration.Overrides(
            host: host, port: port, publicDirectory: publicDirectory, loginDelay: loginDelay,
            logLevel: logLevel, maxMessageSize: maxMessageSize, pingInterval: pingInterval,
            pongTimeout: pongTimeout, allowedOrigins: allowedOrigins, messageRate: messageRate,
            tlsCertificate: tlsCertificate, tlsKey: tlsKey, serverNames: serverNames,
            loginService: loginService, database: database, loginWorkers: loginWorkers, trustedProxies: trustedProxies,
            dashboard: dashboard, adminToken: adminToken, deflate: deflate,
            loops: loops, shutdownTimeout: shutdownTimeout, drainGrace: drainGrace)
        if !RxLiveApp.current.accounts {
            let given = [("--login-delay", loginDelay), ("--login-service", loginService), ("--database", database),
                         ("--login-workers", loginWorkers)].first { $0.1 != nil }
            if let (flag, _) = given {
                throw ConfigurationError(description: "\(flag): \(RxLiveApp.current.name) has no accounts")
            }
        }
        var configuration = try Configuration(flags: flags, environment: environment)
        configuration.publicDirectory = try PublicDirectory.locate(given: configuration.publicDirectory)
        return configuration
    }

    func run() throws {
        let configuration = try resolvedConfiguration(environment: ProcessInfo.processInfo.environment)
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let app = RxLiveApp.current
        try serve(configuration, app: app, logger: Logger(label: app.name))
    }
}

/// The process's work once `RxLiveApp.main()` named the app: runs the command, turning
/// every usage or start-up error into one line on standard error and exit code 2.
enum RxLiveMain {
    static func main() -> Never {
        do {
            var command = try RxLiveCommand.parseAsRoot()
            // Only serving handles signals; a `user` command keeps their defaults (Ctrl-C at a prompt).
            if !(command is RxLiveCommand) { TerminationSignals.release() }
            try command.run()
            Foundation.exit(0)
        } catch {
            // --help and --version arrive here as clean exits.
            if RxLiveCommand.exitCode(for: error) == .success {
                RxLiveCommand.exit(withError: error)
            }
            // A `user` command that already said what went wrong.
            if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
            fail(error)
        }
    }

    static func fail(_ error: any Error) -> Never {
        let message = (error as? ConfigurationError)?.description
            ?? (error as? ServeError)?.description
            ?? RxLiveCommand.message(for: error)
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        FileHandle.standardError.write(Data("\(RxLiveApp.current.name): error: \(oneLine)\n".utf8))
        Foundation.exit(2)
    }
}
