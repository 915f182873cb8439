/// `login-churn`: `--connections` workers each repeat: open /ws/login, wait for
/// `ready`, send username and password, tap, wait for `loginResult`, close.
/// Prints completed sessions per second and the p50/p99 of a whole session.
final class LoginChurnMode: BenchRun {
    private var running = false
    private var startedAt: UInt64 = 0
    private var stoppedAt: UInt64 = 0
    private var completed = 0
    private var results = [false: 0, true: 0]
    private var durations = LatencyRecorder()
    private var logins = 0
    private var refused = 0

    override func begin() {
        running = true
        startedAt = loop.now
        for _ in 0 ..< options.connections { openSession() }
        loop.schedule(after: options.seconds) { [unowned self] in
            running = false
            stoppedAt = loop.now
            end()
        }
    }

    private func openSession() {
        guard running else { return }
        let connection = openConnection(path: options.path ?? "/ws/login")
        connection.sentAt = loop.now   // session start
    }

    override func connection(_ connection: BenchConnection, didReceiveText text: UnsafeRawBufferPointer) {
        if connection.phase == 0 {
            guard text.contains("{\"ready\"") else { return }
            connection.phase = 1
            // With --accounts, successive sessions take turns over the accounts (each account's
            // throttle sees one login at a time, as a person's would).
            let username = options.accounts > 0 ? "bench\(logins % options.accounts)" : "bench"
            logins += 1
            connection.sendText("{\"input\":\"username\",\"value\":\"\(username)\"}")
            connection.sendText("{\"input\":\"password\",\"value\":\"secret\"}")
            connection.sendText("{\"input\":\"loginTapped\"}")
        } else if connection.phase == 1, text.contains("\"error\"") {
            // A refused login (rate_limited, login_unavailable) ends the session without a result.
            connection.phase = 2
            if running { refused += 1 }
            connection.close()
        } else if connection.phase == 1, text.contains("\"output\":\"loginResult\"") {
            connection.phase = 2
            if running {
                completed += 1
                results[text.contains("true"), default: 0] += 1
                durations.record(loop.now - connection.sentAt)
            }
            connection.close()
        }
    }

    override func connectionDidClose(_ connection: BenchConnection, error: String?) {
        super.connectionDidClose(connection, error: error)
        // Keep the worker busy: a finished session makes room for the next; after a
        // failure wait a little so a refused port does not become a connect storm.
        guard running else { return }
        if error == nil {
            openSession()
        } else {
            loop.schedule(after: 0.1) { [unowned self] in openSession() }
        }
    }

    override func report() -> String {
        let seconds = Double(stoppedAt &- startedAt) / 1e9
        guard seconds > 0 else { return "login-churn: no measurement" }
        if completed == 0 && runError == nil { runError = "no login session completed" }
        var lines = ["login-churn: port \(options.port), \(options.connections) workers, \(format(seconds)) s: "
                     + "\(completed) sessions, \(format(Double(completed) / seconds)) sessions/s "
                     + "(loginResult true \(results[true] ?? 0), false \(results[false] ?? 0), refused \(refused)); "
                     + "session time \(durations.summary())"]
        if !failureSummary.isEmpty { lines.append("login-churn: " + failureSummary) }
        return lines.joined(separator: "\n")
    }
}
