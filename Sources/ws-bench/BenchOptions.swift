/// The command line: `ws-bench <mode> --port P [--connections N] [--seconds S] ...`.
struct BenchOptions {
    enum Mode: String, CaseIterable {
        case echo, sum, idle, hold, codec
        case loginChurn = "login-churn"
    }

    var mode: Mode
    var host = "127.0.0.1"
    var port: Int32 = 0
    var connections = 64
    var seconds = 5.0
    var sessions = 10_000
    var serverPID: Int32?
    /// The request path; each mode has its own default.
    var path: String?
    /// Payload size of an echo message in bytes.
    var messageSize = 32
    /// idle: count a session as open at the 101 (for servers without a ready message).
    var waitForReady = true
    /// login-churn: log in as `bench0` … `bench<N-1>` in turn (0: always `bench`).
    var accounts = 0
    /// idle: how long the sessions stay open once all are ready (RSS is read after 1 s).
    var holdSeconds = 1.0
    /// Upper bound on the whole run, whatever happens.
    var timeout = 120.0
    /// Speak wss:// (TLS), trusting the CA certificates in this PEM file.
    var tlsAuthority: String?
    /// Offer permessage-deflate in every handshake (the server's messages may come compressed).
    var deflate = false
    /// hold: number changes a second over all sessions once `go` appears.
    var rate = 0.0
    /// hold: the folder whose `go` and `close` files start the sending and the close.
    var control: String?
    /// hold: where each reply's latency (microseconds, one a line) is written.
    var latencyFile: String?

    static let usage = """
    usage: ws-bench <mode> --port P [options]
    modes:
      echo         --connections 64 --seconds 5 [--size 32] [--path /]
                   one message in flight per connection; round trips/s, p50, p99
      sum          --connections 64 --seconds 5 [--path /ws/sum]
                   one number1 change in flight per session; sum replies/s, p50, p99
      idle         --sessions 10000 [--server-pid PID] [--no-ready] [--path /ws/sum] [--hold 1]
                   opens idle sessions, waits for every ready; server RSS per session
      hold         --sessions N --control DIR [--rate R --seconds S] [--latency-file PATH] [--timeout 3600]
                   opens and holds N sum sessions; on DIR/go sends R changes/s to random sessions for S s;
                   on DIR/close closes them (one client of scripts/bench-million.sh)
      login-churn  --connections 64 --seconds 5 [--path /ws/login] [--accounts N]
                   open, log in, wait for loginResult, close; sessions/s
                   (as user bench, password secret; with --accounts, users bench0 … benchN-1)
      codec        --seconds 2 (no network: the codec's decode speed; --port not needed)
    common: --host 127.0.0.1 (loopback only) --timeout 120 (hard bound in seconds)
            --tls-ca PEM (connect with TLS, trusting that CA)
            --deflate (offer permessage-deflate; compressed server messages are inflated)
    """

    /// Parses `arguments` (without the program name); throws a message for the user.
    static func parse(_ arguments: [String]) throws(BenchError) -> BenchOptions {
        guard let first = arguments.first, let mode = Mode(rawValue: first) else {
            throw BenchError.usage("expected a mode: \(Mode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var options = BenchOptions(mode: mode)
        var index = 1
        func value(_ name: String) throws(BenchError) -> String {
            index += 1
            guard index < arguments.count else { throw BenchError.usage("\(name) needs a value") }
            return arguments[index]
        }
        func number<T: LosslessStringConvertible & Comparable>(_ name: String, _ type: T.Type, min: T) throws(BenchError) -> T {
            let text = try value(name)
            guard let parsed = T(text), parsed >= min else { throw BenchError.usage("bad value for \(name): \(text)") }
            return parsed
        }
        while index < arguments.count {
            let name = arguments[index]
            switch name {
            case "--port": options.port = try number(name, Int32.self, min: 1)
            case "--host": options.host = try value(name)
            case "--connections": options.connections = try number(name, Int.self, min: 1)
            case "--seconds": options.seconds = try number(name, Double.self, min: 0.1)
            case "--sessions": options.sessions = try number(name, Int.self, min: 1)
            case "--server-pid": options.serverPID = try number(name, Int32.self, min: 1)
            case "--path": options.path = try value(name)
            case "--size": options.messageSize = try number(name, Int.self, min: 0)
            case "--timeout": options.timeout = try number(name, Double.self, min: 1)
            case "--no-ready": options.waitForReady = false
            case "--hold": options.holdSeconds = try number(name, Double.self, min: 1)
            case "--tls-ca": options.tlsAuthority = try value(name)
            case "--accounts": options.accounts = try number(name, Int.self, min: 0)
            case "--deflate": options.deflate = true
            case "--rate": options.rate = try number(name, Double.self, min: 0)
            case "--control": options.control = try value(name)
            case "--latency-file": options.latencyFile = try value(name)
            case "--help", "-h": throw BenchError.usage("")
            default: throw BenchError.usage("unknown option \(name)")
            }
            index += 1
        }
        guard options.port > 0 && options.port < 65536 || mode == .codec else { throw BenchError.usage("--port is required") }
        guard options.host == "127.0.0.1" || options.host == "localhost" else {
            throw BenchError.usage("ws-bench only targets loopback (127.0.0.1)")
        }
        options.host = "127.0.0.1"
        options.connections = min(options.connections, 10_000)
        // A hold client takes as many as its file limit allows (it checks); the others stay small.
        if mode != .hold { options.sessions = min(options.sessions, 100_000) }
        return options
    }
}

enum BenchError: Error {
    case usage(String)
    case failed(String)
}
