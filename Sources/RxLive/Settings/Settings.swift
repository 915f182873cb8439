import EventLoop
import FoundationEssentials
import Glibc
import HTTPServer
import Logging
import Sessions

/// Every setting of an RxLive server, each declared once: `RxLiveCommand`'s options,
/// `Configuration`'s defaults, the `RXLIVE_*` reader and the README's table
/// (`rxlive settings-table`, `scripts/settings-table`) all read this catalog.
///
/// To add a setting: declare it here and add it to `all`, give `Configuration` a property
/// whose default is its `defaultValue`, give `RxLiveCommand` an option that `givenFlags`
/// records (SettingsTableTests checks both), then run `scripts/settings-table`.
enum Settings {
    /// Every setting, in the order of the help and the README's table; values are read in
    /// this order too, so the first bad one is the one reported.
    static let all: [any ConfigurationSetting] = [
        host, port, publicDirectory, loginDelay, logLevel, maxMessageSize, pingInterval, pongTimeout,
        messageRate, allowedOrigins, serverNames, tlsCertificate, tlsKey, loginService, database, loginWorkers,
        sessionIdleTimeout, sessionLifetime,
        trustedProxies, hstsMaxAge, dashboard, adminToken, deflate, loops, reusePort, drainGrace, shutdownTimeout,
        record, recordMaxFiles, recordMaxBytes,
    ]

    /// The README's configuration table: a header and one row per setting, accounts' settings
    /// only for an app with accounts.
    static func markdownTable(accounts: Bool) -> String {
        let rows = all.filter { accounts || !$0.accountsOnly }.map(\.markdownRow)
        return (["| flag | environment variable | default | meaning |", "| --- | --- | --- | --- |"] + rows)
            .joined(separator: "\n") + "\n"
    }

    static let host = Setting(
        \.host, flag: "host", variable: "RXLIVE_HOST", valueName: "address", default: "127.0.0.1",
        syntax: .nonEmpty("the host must not be empty"),
        help: "Address to listen on (the container sets `0.0.0.0`)")

    static let port = Setting(
        \.port, flag: "port", variable: "RXLIVE_PORT", valueName: "port", default: 8080,
        syntax: .integer(in: 1...65535),
        help: "TCP port to listen on")

    static let publicDirectory = Setting(
        \.publicDirectory, flag: "public", variable: "RXLIVE_PUBLIC", valueName: "folder", default: nil,
        shown: "`Public/` in the working directory, else beside the executable",
        syntax: .nonEmpty("the folder must not be empty"),
        help: "Folder of the page")

    static let loginDelay = Setting(
        \.loginDelay, flag: "login-delay", variable: "RXLIVE_LOGIN_DELAY", valueName: "seconds", default: .seconds(2),
        accountsOnly: true, syntax: .seconds(allowZero: true),
        help: "Seconds the simulated login request takes")

    static let logLevel = Setting(
        \.logLevel, flag: "log-level", variable: "RXLIVE_LOG_LEVEL", valueName: "level", default: Logger.Level.info,
        syntax: .choice(ignoringCase: true) { text in
            "'\(text)' is not a log level (\(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")))"
        },
        help: "The least severe messages logged: "
            + Logger.Level.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "))

    static let maxMessageSize = Setting(
        \.maxMessageSize, flag: "max-message-size", variable: "RXLIVE_MAX_MESSAGE_SIZE", valueName: "bytes",
        default: HTTPServerConfiguration().maxMessageSize,
        syntax: .integer(in: 125...(64 << 20)),
        help: "Largest WebSocket message accepted, in bytes (a larger one closes the connection with 1009)")

    static let pingInterval = Setting(
        \.pingInterval, flag: "ping-interval", variable: "RXLIVE_PING_INTERVAL", valueName: "seconds", default: .seconds(30),
        syntax: .seconds(allowZero: false),
        help: "Seconds between pings on each open WebSocket, busy or idle")

    static let pongTimeout = Setting(
        \.pongTimeout, flag: "pong-timeout", variable: "RXLIVE_PONG_TIMEOUT", valueName: "seconds", default: .seconds(15),
        syntax: .seconds(allowZero: false),
        help: "Seconds to wait for a pong before dropping the connection")

    static let messageRate = Setting(
        \.messageRate, flag: "message-rate", variable: "RXLIVE_MESSAGE_RATE", valueName: "rate", default: 100.0,
        syntax: .single(show: { $0.rounded() == $0 ? "\(Int($0))" : "\($0)" }) { text throws(SettingProblem) in
            guard let rate = Double(text), rate.isFinite, rate >= 0, rate <= 1_000_000 else {
                throw SettingProblem(message: "'\(text)' is not a number of messages per second (0 to 1000000)")
            }
            return rate
        },
        help: "Messages per second one session may send, in bursts of twice that (`rate_limited` beyond); `0` for no limit")

    static let allowedOrigins = Setting(
        \.allowedOrigins, flag: "allowed-origin", variable: "RXLIVE_ALLOWED_ORIGINS", valueName: "origin", default: [], shown: "none",
        syntax: .list(checking: SettingChecks.originProblem),
        help: "Browser origins allowed to open a WebSocket besides the page's own, which always may: each "
            + "`scheme://host` or `scheme://host:port`, or `*`; clients that send no `Origin` (such as `websocat`) "
            + "always may too")

    static let serverNames = Setting(
        \.serverNames, flag: "server-name", variable: "RXLIVE_SERVER_NAMES", valueName: "name", default: [],
        shown: "the `--host` address, `localhost`, `127.0.0.1`, `[::1]`",
        syntax: .list(checking: SettingChecks.serverNameProblem),
        help: "Host names or addresses the server answers for, without a port (an IPv6 address with or without "
            + "brackets); a request whose `Host` names another gets `421`; `*` alone answers any")

    static let tlsCertificate = Setting(
        \.tlsCertificate, flag: "tls-cert", variable: "RXLIVE_TLS_CERT", valueName: "path", default: nil, shown: "none: plain HTTP",
        syntax: .anyText,
        help: "PEM certificate chain, leaf first: serve `https://` and `wss://` on the port instead of `http://` "
            + "and `ws://`; needs `--tls-key`; SIGHUP reloads both")

    static let tlsKey = Setting(
        \.tlsKey, flag: "tls-key", variable: "RXLIVE_TLS_KEY", valueName: "path", default: nil, shown: "none",
        syntax: .anyText,
        help: "PEM private key of `--tls-cert`; refused unless only its owner may read it (mode `600` or `400`)")

    static let loginService = Setting(
        \.loginService, flag: "login-service", variable: "RXLIVE_LOGIN_SERVICE", valueName: "service",
        default: LoginServiceKind.store, accountsOnly: true,
        syntax: .choice(ignoringCase: false) { "'\($0)' is not a login service (store or simulated)" },
        help: "What answers the login form: `store` (the accounts in `--database`) or `simulated` "
            + "(`true` after `--login-delay` for any filled-in form)")

    static let database = Setting(
        \.database, flag: "database", variable: "RXLIVE_DATABASE", valueName: "database",
        default: DatabaseLocation.sqlite(path: "data/rxlive.sqlite"), accountsOnly: true,
        syntax: .single(show: \.description) { text throws(SettingProblem) in try DatabaseLocation.read(text) },
        help: "Where the accounts are: `sqlite:PATH` (a file, created 0600 in a folder created 0700) "
            + "or `postgres://…` (a libpq connection URI)")

    static let loginWorkers = Setting(
        \.loginWorkers, flag: "login-workers", variable: "RXLIVE_LOGIN_WORKERS", valueName: "threads",
        default: max(1, ProcessInfo.processInfo.activeProcessorCount - 1), shown: "cores − 1, at least 1",
        accountsOnly: true, syntax: .integer(in: 1...64),
        help: "Threads that hash passwords, off the event loop")

    static let sessionIdleTimeout = Setting(
        \.sessionIdleTimeout, flag: "session-idle-timeout", variable: "RXLIVE_SESSION_IDLE_TIMEOUT", valueName: "seconds",
        default: .seconds(24 * 3600), accountsOnly: true, syntax: .seconds(allowZero: false),
        help: "Seconds a sign-in (session cookie or bearer token) may go unused before it ends")

    static let sessionLifetime = Setting(
        \.sessionLifetime, flag: "session-lifetime", variable: "RXLIVE_SESSION_LIFETIME", valueName: "seconds",
        default: .seconds(30 * 24 * 3600), accountsOnly: true, syntax: .seconds(allowZero: false),
        help: "Seconds a sign-in lasts at most after the login that made it, however often it is used")

    static let trustedProxies = Setting(
        \.trustedProxies, flag: "trusted-proxy", variable: "RXLIVE_TRUSTED_PROXIES", valueName: "address", default: [], shown: "none",
        syntax: .list(checking: TrustedProxies.problem),
        help: "IP addresses and CIDR ranges (such as `10.0.0.1` or `10.0.0.0/8`, IPv4 or IPv6) of proxies whose "
            + "`X-Forwarded-For` names the client (for login throttling) and whose `X-Forwarded-Proto: https` "
            + "counts as TLS (for `Strict-Transport-Security` and the `Secure` session cookie)")

    static let hstsMaxAge = Setting(
        \.hstsMaxAge, flag: "hsts-max-age", variable: "RXLIVE_HSTS_MAX_AGE", valueName: "seconds", default: 63_072_000,
        shown: "`63072000` (two years)", syntax: .integer(in: 0...1_000_000_000),
        help: "`max-age` of `Strict-Transport-Security`, sent over TLS (or a `--trusted-proxy` that says it used "
            + "HTTPS), never over plain HTTP: how long browsers then refuse plain HTTP; `0` makes them forget")

    static let dashboard = Setting(
        \.dashboard, flag: "dashboard", variable: "RXLIVE_DASHBOARD", valueName: "mode", default: DashboardMode.auto,
        syntax: .choice(ignoringCase: true) { "'\($0)' is not auto, on or off" },
        help: "When `/dashboard` is served: `auto` on a loopback host (`127.x.x.x`, `::1`, `localhost`) "
            + "or when an admin token is given, `on` or `off`")

    static let adminToken = Setting(
        \.adminToken, flag: "admin-token", variable: "RXLIVE_ADMIN_TOKEN", valueName: "token", default: nil,
        shown: "a random one, made and logged at start",
        syntax: .single(show: { $0 ?? "" }) { text throws(SettingProblem) in
            // URL-safe characters only: the page passes the token in the WebSocket URL as it is.
            let urlSafe = text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "~")
            }
            guard text.utf8.count >= 16, urlSafe else {
                throw SettingProblem(
                    message: "an admin token needs at least 16 characters, each a letter, a digit, '-', '_', '.' or '~'")
            }
            return text
        },
        help: "The token a dashboard viewer must present: 16 or more letters, digits, `-`, `_`, `.`, `~`")

    static let deflate = Setting(
        \.deflate, flag: "deflate", variable: "RXLIVE_DEFLATE", valueName: "on|off", default: true,
        syntax: .onOff,
        help: "`on` or `off`: accept a client's permessage-deflate offer (RFC 7692; browsers make one): the server "
            + "then compresses its messages of 128 bytes or more, and the client may compress its own")

    static let loops = Setting(
        \.loops, flag: "loops", variable: "RXLIVE_LOOPS", valueName: "count",
        default: EventLoopGroup.processorCount, shown: "one per processor the process may run on",
        syntax: .integer(in: 1...256),
        help: "Event loops, one thread each; each connection stays on one loop for its whole life")

    static let reusePort = Setting(
        \.reusePort, flag: "reuse-port", variable: "RXLIVE_REUSE_PORT", valueName: "on|off", default: false,
        syntax: .onOff,
        help: "`on` or `off`: listen with `SO_REUSEPORT`, so that several `rxlive` processes (each `--loops 1`, say) "
            + "share one port and the kernel spreads new connections over them")

    static let drainGrace = Setting(
        \.drainGrace, flag: "drain-grace", variable: "RXLIVE_DRAIN_GRACE", valueName: "seconds", default: .zero,
        syntax: .seconds(allowZero: true),
        help: "Seconds `/healthz` answers `503` after SIGTERM or SIGINT while everything is still served, "
            + "before the drain starts")

    static let shutdownTimeout = Setting(
        \.shutdownTimeout, flag: "shutdown-timeout", variable: "RXLIVE_SHUTDOWN_TIMEOUT", valueName: "seconds", default: .seconds(5),
        syntax: .seconds(allowZero: false),
        help: "Seconds the drain may take; connections still open then are dropped")

    static let record = Setting(
        \.record, flag: "record", variable: "RXLIVE_RECORD", valueName: "folder", default: nil, shown: "none: nothing recorded",
        syntax: .nonEmpty("the folder must not be empty"),
        help: "Record every session of the view models to its own file in this folder (made mode `700`; files mode "
            + "`600`): inputs and outputs with their times, secret inputs as their length only, and the services' "
            + "answers; `replay` plays them back (docs/RECORDING.md)")

    static let recordMaxFiles = Setting(
        \.recordMaxFiles, flag: "record-max-files", variable: "RXLIVE_RECORD_MAX_FILES", valueName: "count", default: 1000,
        syntax: .integer(in: 1...10_000_000),
        help: "Recordings kept in the `--record` folder at most; the oldest go first")

    static let recordMaxBytes = Setting(
        \.recordMaxBytes, flag: "record-max-bytes", variable: "RXLIVE_RECORD_MAX_BYTES", valueName: "bytes",
        default: 100 << 20, shown: "`104857600` (100 MiB)", syntax: .integer(in: 4096...(1 << 40)),
        help: "Bytes the `--record` folder's recordings may take in all, the oldest removed first; a session's "
            + "file stops (marked `truncated`) when it alone reaches this")
}
