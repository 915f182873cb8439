/// `idle`: opens `--sessions` idle sessions (at most 256 handshakes at a time),
/// waits until each has sent `ready` (or just the 101 with `--no-ready`), and
/// reads the server's resident memory before and after: KiB per session.
final class IdleMode: BenchRun {
    private let maxPending = 256
    private var started = 0
    private var pending = 0
    private var ready = 0
    private var failed = 0
    private var rssBefore: Int?
    private var rssAfter: Int?
    private var fileLimit: UInt64 = 0
    private var openedAt: UInt64 = 0
    private var allReadyAt: UInt64 = 0

    override func begin() {
        fileLimit = ProcessResources.raiseFileLimit()
        if let pid = options.serverPID {
            rssBefore = ProcessResources.residentKiB(of: pid)
            if rssBefore == nil { runError = "cannot read /proc/\(pid)/status" }
        }
        if UInt64(options.sessions) + 64 > fileLimit {
            runError = "need \(options.sessions + 64) file descriptors, the hard limit allows \(fileLimit)"
            return end(grace: 0)
        }
        openedAt = loop.now
        openMore()
    }

    private func openMore() {
        while !ending && pending < maxPending && started < options.sessions {
            started += 1
            pending += 1
            openConnection(path: options.path ?? "/ws/sum")
        }
    }

    override func connectionDidOpen(_ connection: BenchConnection) {
        if !options.waitForReady { sessionReady(connection) }
    }

    override func connection(_ connection: BenchConnection, didReceiveText text: UnsafeRawBufferPointer) {
        if connection.phase == 0 && text.contains("{\"ready\"") { sessionReady(connection) }
    }

    private func sessionReady(_ connection: BenchConnection) {
        guard connection.phase == 0 else { return }
        connection.phase = 1
        pending -= 1
        ready += 1
        openMore()
        checkDone()
    }

    override func connectionDidClose(_ connection: BenchConnection, error: String?) {
        if !ending && connection.phase == 0 {
            pending -= 1
            failed += 1
            openMore()
        }
        super.connectionDidClose(connection, error: error)
        checkDone()
    }

    private func checkDone() {
        guard !ending, ready + failed == options.sessions, allReadyAt == 0 else { return }
        allReadyAt = loop.now
        // Let the server settle (deferred frees, lazily touched pages) before measuring.
        loop.schedule(after: 1) { [unowned self] in
            if let pid = options.serverPID { rssAfter = ProcessResources.residentKiB(of: pid) }
            loop.schedule(after: options.holdSeconds - 1) { [unowned self] in end(grace: 5) }
        }
    }

    override func report() -> String {
        var lines: [String] = []
        let openSeconds = Double(allReadyAt &- openedAt) / 1e9
        lines.append("idle: port \(options.port), \(ready)/\(options.sessions) sessions open"
                     + (options.waitForReady ? " and ready" : "")
                     + (allReadyAt > 0 ? " in \(format(openSeconds)) s" : "")
                     + (failed > 0 ? ", \(failed) failed" : ""))
        if let before = rssBefore, let after = rssAfter, ready > 0 {
            let perSession = Double(after - before) / Double(ready)
            lines.append("idle: server RSS \(before) KiB before, \(after) KiB after: \(format(perSession)) KiB per session")
        } else if options.serverPID == nil {
            lines.append("idle: no --server-pid given, memory not measured")
        }
        if !failureSummary.isEmpty { lines.append("idle: " + failureSummary) }
        return lines.joined(separator: "\n")
    }
}
