import Logging
import XCTest
@testable import RxLive

/// The settings read from flags and `RXLIVE_*` variables: defaults, what each accepts, that a
/// flag wins over its variable, and the exact one-line message for each kind of bad value.
final class ConfigurationTests: RunningAppTestCase {
    override func setUp() {
        super.setUp()
        runAs(accounts: true)
    }

    /// The configuration `arguments` and `environment` describe, with the page folder given.
    private func resolve(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Configuration {
        let command = try RxLiveCommand.parse(arguments + ["--public", "Public"])
        return try command.resolvedConfiguration(environment: environment)
    }

    /// The one-line message `arguments` and `environment` are refused with.
    private func refusal(_ arguments: [String], _ environment: [String: String] = [:],
                         file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try resolve(arguments, environment)
            XCTFail("accepted \(arguments) \(environment)", file: file, line: line)
            return ""
        } catch {
            return "\(error)"
        }
    }

    func testDefaults() {
        let configuration = Configuration()
        XCTAssertEqual(configuration.host, "127.0.0.1")
        XCTAssertEqual(configuration.port, 8080)
        XCTAssertNil(configuration.publicDirectory)
        XCTAssertEqual(configuration.loginDelay, .seconds(2))
        XCTAssertEqual(configuration.logLevel, .info)
        XCTAssertEqual(configuration.maxMessageSize, 65536)
        XCTAssertEqual(configuration.pingInterval, .seconds(30))
        XCTAssertEqual(configuration.pongTimeout, .seconds(15))
        XCTAssertEqual(configuration.allowedOrigins, [])
        XCTAssertEqual(configuration.messageRate, 100)
        XCTAssertNil(configuration.tlsCertificate)
        XCTAssertNil(configuration.tlsKey)
        XCTAssertEqual(configuration.serverNames, [])
        XCTAssertEqual(configuration.loginService, .store)
        XCTAssertEqual(configuration.database, .sqlite(path: "data/rxlive.sqlite"))
        XCTAssertEqual(configuration.loginWorkers, max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
        XCTAssertEqual(configuration.trustedProxies, [])
        XCTAssertEqual(configuration.dashboard, .auto)
        XCTAssertNil(configuration.adminToken)
        XCTAssertTrue(configuration.deflate)
        XCTAssertEqual(configuration.shutdownTimeout, .seconds(5))
        XCTAssertEqual(configuration.drainGrace, .zero)
    }

    func testEveryVariableIsRead() throws {
        let configuration = try resolve([], [
            "RXLIVE_HOST": "0.0.0.0", "RXLIVE_PORT": "9090", "RXLIVE_LOGIN_DELAY": "0.25", "RXLIVE_LOG_LEVEL": "DEBUG",
            "RXLIVE_MAX_MESSAGE_SIZE": "4096", "RXLIVE_PING_INTERVAL": "10", "RXLIVE_PONG_TIMEOUT": "3",
            "RXLIVE_ALLOWED_ORIGINS": "https://a.example, ,https://b.example", "RXLIVE_MESSAGE_RATE": "2.5",
            "RXLIVE_TLS_CERT": "cert.pem", "RXLIVE_TLS_KEY": "key.pem", "RXLIVE_SERVER_NAMES": "a.example,b.example",
            "RXLIVE_LOGIN_SERVICE": "simulated", "RXLIVE_DATABASE": "postgres://db/accounts", "RXLIVE_LOGIN_WORKERS": "3",
            "RXLIVE_TRUSTED_PROXIES": "10.0.0.1 , 10.0.0.2", "RXLIVE_DASHBOARD": "ON",
            "RXLIVE_ADMIN_TOKEN": "abcdefghijklmnop", "RXLIVE_DEFLATE": "Off", "RXLIVE_LOOPS": "3",
            "RXLIVE_SHUTDOWN_TIMEOUT": "7", "RXLIVE_DRAIN_GRACE": "1.5",
        ])
        XCTAssertEqual(configuration.host, "0.0.0.0")
        XCTAssertEqual(configuration.port, 9090)
        XCTAssertEqual(configuration.loginDelay, .milliseconds(250))
        XCTAssertEqual(configuration.logLevel, .debug)
        XCTAssertEqual(configuration.maxMessageSize, 4096)
        XCTAssertEqual(configuration.pingInterval, .seconds(10))
        XCTAssertEqual(configuration.pongTimeout, .seconds(3))
        XCTAssertEqual(configuration.allowedOrigins, ["https://a.example", "https://b.example"])
        XCTAssertEqual(configuration.messageRate, 2.5)
        XCTAssertEqual(configuration.tlsCertificate, "cert.pem")
        XCTAssertEqual(configuration.tlsKey, "key.pem")
        XCTAssertEqual(configuration.serverNames, ["a.example", "b.example"])
        XCTAssertEqual(configuration.loginService, .simulated)
        XCTAssertEqual(configuration.database, .postgres(uri: "postgres://db/accounts"))
        XCTAssertEqual(configuration.loginWorkers, 3)
        XCTAssertEqual(configuration.trustedProxies, ["10.0.0.1", "10.0.0.2"])
        XCTAssertEqual(configuration.dashboard, .on)
        XCTAssertEqual(configuration.adminToken, "abcdefghijklmnop")
        XCTAssertFalse(configuration.deflate)
        XCTAssertEqual(configuration.loops, 3)
        XCTAssertEqual(configuration.shutdownTimeout, .seconds(7))
        XCTAssertEqual(configuration.drainGrace, .milliseconds(1500))
    }

    func testAFlagWinsOverItsVariableAndRepeatedFlagsReplaceTheList() throws {
        let configuration = try resolve(
            ["--port", "9091", "--allowed-origin", "https://c.example,d", "--allowed-origin", "https://e.example",
             "--server-name", "flag.example", "--trusted-proxy", "10.0.0.9", "--database", "sqlite:other.sqlite"],
            ["RXLIVE_PORT": "eighty", "RXLIVE_ALLOWED_ORIGINS": "https://a.example", "RXLIVE_SERVER_NAMES": "env.example",
             "RXLIVE_TRUSTED_PROXIES": "10.0.0.1", "RXLIVE_DATABASE": "accounts.db"])
        XCTAssertEqual(configuration.port, 9091)
        // A flag's value is one item even with a comma in it.
        XCTAssertEqual(configuration.allowedOrigins, ["https://c.example,d", "https://e.example"])
        XCTAssertEqual(configuration.serverNames, ["flag.example"])
        XCTAssertEqual(configuration.trustedProxies, ["10.0.0.9"])
        XCTAssertEqual(configuration.database, .sqlite(path: "other.sqlite"))
    }

    func testAnEmptyCertificateAndKeyMeanPlainHTTP() throws {
        let configuration = try resolve([], ["RXLIVE_TLS_CERT": "", "RXLIVE_TLS_KEY": ""])
        XCTAssertNil(configuration.tlsCertificate)
        XCTAssertNil(configuration.tlsKey)
    }

    func testEachBadValueIsRefusedWithOneLineNamingItsFlagOrVariable() {
        XCTAssertEqual(refusal([], ["RXLIVE_HOST": ""]), "RXLIVE_HOST: the host must not be empty")
        XCTAssertEqual(refusal(["--port", "70000"]), "--port: '70000' is not a whole number from 1 to 65535")
        XCTAssertEqual(refusal([], ["RXLIVE_PORT": "eighty"]), "RXLIVE_PORT: 'eighty' is not a whole number from 1 to 65535")
        XCTAssertThrowsError(try Configuration(environment: ["RXLIVE_PUBLIC": ""])) { error in
            XCTAssertEqual("\(error)", "RXLIVE_PUBLIC: the folder must not be empty")
        }
        XCTAssertEqual(refusal(["--login-delay=-1"]),
                       "--login-delay: '-1' is not a number of seconds (0, at most 86400)")
        XCTAssertEqual(refusal(["--log-level", "loud"]),
                       "--log-level: 'loud' is not a log level (trace, debug, info, notice, warning, error, critical)")
        XCTAssertEqual(refusal(["--max-message-size", "124"]),
                       "--max-message-size: '124' is not a whole number from 125 to 67108864")
        XCTAssertEqual(refusal(["--ping-interval", "0"]),
                       "--ping-interval: '0' is not a number of seconds (above 0, at most 86400)")
        XCTAssertEqual(refusal([], ["RXLIVE_PONG_TIMEOUT": "86401"]),
                       "RXLIVE_PONG_TIMEOUT: '86401' is not a number of seconds (above 0, at most 86400)")
        XCTAssertEqual(refusal(["--message-rate=-5"]),
                       "--message-rate: '-5' is not a number of messages per second (0 to 1000000)")
        XCTAssertEqual(refusal(["--tls-cert", "cert.pem"]),
                       "--tls-cert and --tls-key (RXLIVE_TLS_CERT, RXLIVE_TLS_KEY) go together: give both or neither")
        XCTAssertEqual(refusal(["--server-name", "a/b"]), "--server-name: 'a/b' is not a host name")
        XCTAssertEqual(refusal(["--login-service", "magic"]),
                       "--login-service: 'magic' is not a login service (store or simulated)")
        XCTAssertEqual(refusal([], ["RXLIVE_DATABASE": "accounts.db"]),
                       "RXLIVE_DATABASE: not a database: give sqlite:PATH or postgres://… (the value is not repeated here: it may hold a password)")
        XCTAssertEqual(refusal(["--login-workers", "0"]), "--login-workers: '0' is not a whole number from 1 to 64")
        XCTAssertEqual(refusal(["--dashboard", "sometimes"]), "--dashboard: 'sometimes' is not auto, on or off")
        XCTAssertEqual(refusal(["--admin-token", "short"]),
                       "--admin-token: an admin token needs at least 16 characters, each a letter, a digit, '-', '_', '.' or '~'")
        XCTAssertEqual(refusal([], ["RXLIVE_DEFLATE": "yes"]), "RXLIVE_DEFLATE: 'yes' is not on or off")
        XCTAssertEqual(refusal(["--loops", "0"]), "--loops: '0' is not a whole number from 1 to 256")
        XCTAssertEqual(refusal(["--shutdown-timeout", "0"]),
                       "--shutdown-timeout: '0' is not a number of seconds (above 0, at most 86400)")
        XCTAssertEqual(refusal([], ["RXLIVE_DRAIN_GRACE": "-1"]),
                       "RXLIVE_DRAIN_GRACE: '-1' is not a number of seconds (0, at most 86400)")
    }

    func testHostNamesOriginsAndProxiesThatCanNeverMatchAreRefused() {
        let notAName = "--server-name: 'myhost:8080' is not a host name: give it without a port "
            + "(the port of a request's Host is not compared)"
        XCTAssertEqual(refusal(["--server-name", "myhost:8080"]), notAName)
        XCTAssertEqual(refusal(["--server-name", "*.example"]), "--server-name: '*.example' is not a host name: "
                       + "`*` alone answers any host, and no other wildcard is supported")
        XCTAssertEqual(refusal([], ["RXLIVE_SERVER_NAMES": "a.example,[::1"]),
                       "RXLIVE_SERVER_NAMES: '[::1' is not a host name: brackets hold an IPv6 address, as in [::1]")
        XCTAssertEqual(refusal(["--allowed-origin", "evil"]), "--allowed-origin: 'evil' is not an origin: write "
                       + "scheme://host or scheme://host:port, as a browser sends it (such as https://example.com)")
        for origin in ["https://example.com/", "https://example.com:0", "https://", "://x", "https://*.example", "https://[::1"] {
            XCTAssertTrue(refusal(["--allowed-origin", origin]).hasPrefix("--allowed-origin: "), origin)
        }
        XCTAssertEqual(refusal(["--trusted-proxy", "notanip"]), "--trusted-proxy: 'notanip' is not an IP address "
                       + "or a CIDR range (such as 10.0.0.1, 10.0.0.0/8, ::1 or fd00::/8)")
        for proxy in ["10.0.0.0/33", "10.0.0.0/", "::1/129", "10.0.0.1:80", "localhost"] {
            XCTAssertTrue(refusal(["--trusted-proxy", proxy]).hasPrefix("--trusted-proxy: "), proxy)
        }
        XCTAssertNoThrow(try resolve(["--server-name", "*", "--server-name", "::1", "--server-name", "[::1]", "--server-name", "bücher.example",
                              "--allowed-origin", "https://a.example:8443", "--allowed-origin", "http://[::1]:8080",
                              "--allowed-origin", "*", "--trusted-proxy", "127.0.0.0/8", "--trusted-proxy", "fd00::/8"]))
    }

    func testAnAppWithoutAccountsRefusesTheAccountsFlagsAndHidesThem() throws {
        runAs("plain", accounts: false)
        for flag in ["--login-delay", "--login-service", "--database", "--login-workers"] {
            let value = flag == "--database" ? "sqlite:x.sqlite" : flag == "--login-service" ? "store" : "1"
            XCTAssertEqual(refusal([flag, value]), "\(flag): plain has no accounts")
            XCTAssertFalse(RxLiveCommand.helpMessage().contains(flag), "\(flag) shown in the help of an app without accounts")
        }
        XCTAssertTrue(RxLiveCommand.helpMessage().contains("--port"))
    }
}
