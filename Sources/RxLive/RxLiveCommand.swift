import ArgumentParser
import FoundationEssentials
import Glibc
import ProcessSupport
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
            // Serving needs no subcommand: the generated usage would say one is required.
            usage: "\(app.name) [<options>]\n\(app.name) replay [--rxtest] <file> ..."
                + (app.accounts ? "\n\(app.name) user <subcommand>" : ""),
            discussion: """
                Each option can also be set by the environment variable named in its help; \
                a flag wins over its variable. SIGTERM or SIGINT drains the sessions and exits 0: \
                /healthz answers 503 for the drain grace, then the server stops accepting and closes \
                every session with 1001, and exits within the shutdown timeout after that.
                """,
            version: app.version,
            subcommands: [SettingsTableCommand.self, ReplayCommand.self] + (app.accounts ? [UserCommand.self] : [])
        )
    }

    // One option per setting, in the order of `Settings.all`; the text is checked when the
    // configuration is read, so a bad flag and a bad variable get the same message.
    @Option(name: Settings.host.name, help: Settings.host.argumentHelp)
    var host: String?

    @Option(name: Settings.port.name, help: Settings.port.argumentHelp)
    var port: String?

    @Option(name: Settings.publicDirectory.name, help: Settings.publicDirectory.argumentHelp)
    var publicDirectory: String?

    @Option(name: Settings.loginDelay.name, help: Settings.loginDelay.argumentHelp)
    var loginDelay: String?

    @Option(name: Settings.logLevel.name, help: Settings.logLevel.argumentHelp)
    var logLevel: String?

    @Option(name: Settings.maxMessageSize.name, help: Settings.maxMessageSize.argumentHelp)
    var maxMessageSize: String?

    @Option(name: Settings.pingInterval.name, help: Settings.pingInterval.argumentHelp)
    var pingInterval: String?

    @Option(name: Settings.pongTimeout.name, help: Settings.pongTimeout.argumentHelp)
    var pongTimeout: String?

    @Option(name: Settings.messageRate.name, help: Settings.messageRate.argumentHelp)
    var messageRate: String?

    @Option(name: Settings.allowedOrigins.name, help: Settings.allowedOrigins.argumentHelp)
    var allowedOrigins: [String] = []

    @Option(name: Settings.serverNames.name, help: Settings.serverNames.argumentHelp)
    var serverNames: [String] = []

    @Option(name: Settings.tlsCertificate.name, help: Settings.tlsCertificate.argumentHelp)
    var tlsCertificate: String?

    @Option(name: Settings.tlsKey.name, help: Settings.tlsKey.argumentHelp)
    var tlsKey: String?

    @Option(name: Settings.loginService.name, help: Settings.loginService.argumentHelp)
    var loginService: String?

    @Option(name: Settings.database.name, help: Settings.database.argumentHelp)
    var database: String?

    @Option(name: Settings.loginWorkers.name, help: Settings.loginWorkers.argumentHelp)
    var loginWorkers: String?
    @Option(name: Settings.sessionIdleTimeout.name, help: Settings.sessionIdleTimeout.argumentHelp)
    var sessionIdleTimeout: String?
    @Option(name: Settings.sessionLifetime.name, help: Settings.sessionLifetime.argumentHelp)
    var sessionLifetime: String?

    @Option(name: Settings.trustedProxies.name, help: Settings.trustedProxies.argumentHelp)
    var trustedProxies: [String] = []

    @Option(name: Settings.hstsMaxAge.name, help: Settings.hstsMaxAge.argumentHelp)
    var hstsMaxAge: String?

    @Option(name: Settings.dashboard.name, help: Settings.dashboard.argumentHelp)
    var dashboard: String?

    @Option(name: Settings.adminToken.name, help: Settings.adminToken.argumentHelp)
    var adminToken: String?

    @Option(name: Settings.deflate.name, help: Settings.deflate.argumentHelp)
    var deflate: String?

    @Option(name: Settings.loops.name, help: Settings.loops.argumentHelp)
    var loops: String?

    @Option(name: Settings.reusePort.name, help: Settings.reusePort.argumentHelp)
    var reusePort: String?

    @Option(name: Settings.drainGrace.name, help: Settings.drainGrace.argumentHelp)
    var drainGrace: String?

    @Option(name: Settings.shutdownTimeout.name, help: Settings.shutdownTimeout.argumentHelp)
    var shutdownTimeout: String?

    @Option(name: Settings.record.name, help: Settings.record.argumentHelp)
    var record: String?

    @Option(name: Settings.recordMaxFiles.name, help: Settings.recordMaxFiles.argumentHelp)
    var recordMaxFiles: String?

    @Option(name: Settings.recordMaxBytes.name, help: Settings.recordMaxBytes.argumentHelp)
    var recordMaxBytes: String?

    /// The values given on the command line, by setting.
    var givenFlags: GivenFlags {
        var flags = GivenFlags()
        flags.set(Settings.host, host)
        flags.set(Settings.port, port)
        flags.set(Settings.publicDirectory, publicDirectory)
        flags.set(Settings.loginDelay, loginDelay)
        flags.set(Settings.logLevel, logLevel)
        flags.set(Settings.maxMessageSize, maxMessageSize)
        flags.set(Settings.pingInterval, pingInterval)
        flags.set(Settings.pongTimeout, pongTimeout)
        flags.set(Settings.messageRate, messageRate)
        flags.set(Settings.allowedOrigins, allowedOrigins)
        flags.set(Settings.serverNames, serverNames)
        flags.set(Settings.tlsCertificate, tlsCertificate)
        flags.set(Settings.tlsKey, tlsKey)
        flags.set(Settings.loginService, loginService)
        flags.set(Settings.database, database)
        flags.set(Settings.loginWorkers, loginWorkers)
        flags.set(Settings.sessionIdleTimeout, sessionIdleTimeout)
        flags.set(Settings.sessionLifetime, sessionLifetime)
        flags.set(Settings.trustedProxies, trustedProxies)
        flags.set(Settings.hstsMaxAge, hstsMaxAge)
        flags.set(Settings.dashboard, dashboard)
        flags.set(Settings.adminToken, adminToken)
        flags.set(Settings.deflate, deflate)
        flags.set(Settings.loops, loops)
        flags.set(Settings.reusePort, reusePort)
        flags.set(Settings.drainGrace, drainGrace)
        flags.set(Settings.shutdownTimeout, shutdownTimeout)
        flags.set(Settings.record, record)
        flags.set(Settings.recordMaxFiles, recordMaxFiles)
        flags.set(Settings.recordMaxBytes, recordMaxBytes)
        return flags
    }

    /// The configuration these flags and the process environment describe.
    func resolvedConfiguration(environment: [String: String]) throws -> Configuration {
        let flags = givenFlags
        let app = RxLiveApp.current
        if !app.accounts, let refused = Settings.all.first(where: { $0.accountsOnly && !flags[$0].isEmpty }) {
            throw ConfigurationError(description: "--\(refused.flag): \(app.name) has no accounts")
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
            Glibc.exit(0)
        } catch {
            // --help and --version arrive here as clean exits.
            if RxLiveCommand.exitCode(for: error) == .success {
                RxLiveCommand.exit(withError: error)
            }
            // A `user` command that already said what went wrong.
            if let code = error as? ExitCode { Glibc.exit(code.rawValue) }
            fail(error)
        }
    }

    static func fail(_ error: any Error) -> Never {
        let message = (error as? ConfigurationError)?.description
            ?? (error as? ServeError)?.description
            ?? RxLiveCommand.message(for: error)
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        StandardError.write("\(RxLiveApp.current.name): error: \(oneLine)\n")
        Glibc.exit(2)
    }
}
