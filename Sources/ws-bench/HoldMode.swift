import Glibc

/// `hold`: one client process's share of a many-process run (scripts/bench-million.sh).
/// Opens `--sessions` sum sessions and holds them, each given its second and third number
/// once it is ready, then, when the `go` file appears in the `--control` folder, sends
/// `--rate` changes of the first number a second, one message each, to random idle sessions
/// for `--seconds` and checks each sum; when the `close` file appears, closes them all. Each step
/// prints one line, so the process that runs it can wait for every client in turn:
///   hold: ready N failed F in S s
///   hold: sent C replies R wrong W errors E
///   hold: closed
/// With `--latency-file`, each reply's latency in microseconds, one a line.
final class HoldMode: BenchRun {
    private enum Phase: Int { case waitingReady = 0, idle, inFlight }
    private enum Step { case opening, holding, sending, sent, closing }

    private let maxPending = 512
    private var step = Step.opening
    private var started = 0
    private var pending = 0
    private var ready: [BenchConnection] = []
    private var failed = 0
    private var openedAt: UInt64 = 0
    private var sent = 0
    private var replies = 0
    private var wrong = 0
    private var errors = 0
    private var latency = LatencyRecorder()
    private var random = FastRandom(seed: 0x5EED)
    /// Changes owed by the pacing timer (a fraction carries over), and when it last ran.
    private var owed = 0.0
    private var pacedAt: UInt64 = 0

    override func begin() {
        let fileLimit = ProcessResources.raiseFileLimit()
        if UInt64(options.sessions) + 64 > fileLimit {
            runError = "need \(options.sessions + 64) file descriptors, the hard limit allows \(fileLimit)"
            return end(grace: 0)
        }
        guard options.control != nil else {
            runError = "hold needs --control DIR"
            return end(grace: 0)
        }
        openedAt = loop.now
        openMore()
        watchControl()
    }

    private func openMore() {
        while step == .opening && pending < maxPending && started < options.sessions {
            started += 1
            pending += 1
            openConnection(path: options.path ?? "/ws/sum")
        }
    }

    override func connection(_ connection: BenchConnection, didReceiveText text: UnsafeRawBufferPointer) {
        switch Phase(rawValue: connection.phase) ?? .waitingReady {
        case .waitingReady:
            guard text.contains("{\"ready\"") else { return }
            connection.phase = Phase.idle.rawValue
            // combineLatest sums once all three numbers have a value: the other two are given
            // now, so that each timed change is the one message a keystroke sends (no reply
            // comes to these).
            connection.sendText("{\"input\":\"number2\",\"value\":\"2\"}")
            connection.sendText("{\"input\":\"number3\",\"value\":\"3\"}")
            ready.append(connection)
            pending -= 1
            openMore()
            checkAllOpen()
        case .idle:
            errors += 1  // nothing was asked of it
        case .inFlight:
            if text.contains("\"error\"") {
                errors += 1
            } else if text.contains("\"output\":\"sum\""), text.integer(after: "\"value\":") == connection.counter + 5 {
                latency.record(loop.now - connection.sentAt)
                replies += 1
            } else {
                wrong += 1
            }
            connection.phase = Phase.idle.rawValue
        }
    }

    override func connectionDidClose(_ connection: BenchConnection, error: String?) {
        if step == .opening && connection.phase == Phase.waitingReady.rawValue {
            pending -= 1
            failed += 1
            openMore()
            checkAllOpen()
        } else if step != .closing {
            errors += 1
        }
        super.connectionDidClose(connection, error: error)
    }

    private func checkAllOpen() {
        guard step == .opening, ready.count + failed == options.sessions else { return }
        step = .holding
        say("hold: ready \(ready.count) failed \(failed) in \(format(Double(loop.now &- openedAt) / 1e9)) s"
            + (failureSummary.isEmpty ? "" : " (\(failureSummary))"))
    }

    /// Polls the control folder for `go` and `close` (a file test each 50 ms).
    private func watchControl() {
        loop.schedule(after: 0.05) { [unowned self] in
            guard !ending, let control = options.control else { return }
            if step == .holding && access(control + "/go", F_OK) == 0 { startSending() }
            if (step == .holding || step == .sent) && access(control + "/close", F_OK) == 0 { return closeAll() }
            watchControl()
        }
    }

    private func startSending() {
        step = .sending
        pacedAt = loop.now
        pace(until: pacedAt + UInt64(options.seconds * 1e9))
    }

    /// Every 10 ms, the changes the rate owes for the time since the last turn (a timer late
    /// on a busy machine sends more, not fewer), each to a random idle session.
    private func pace(until deadline: UInt64) {
        loop.schedule(after: 0.01) { [unowned self] in
            guard !ending else { return }
            let now = loop.now
            guard now < deadline else { return finishSending() }
            owed += options.rate * Double(now - pacedAt) / 1e9
            pacedAt = now
            while owed >= 1 && !ready.isEmpty {
                owed -= 1
                let connection = ready[Int(random.next() % UInt64(ready.count))]
                guard connection.phase == Phase.idle.rawValue, connection.state == .open else { continue }
                send(on: connection)
            }
            pace(until: deadline)
        }
    }

    private func send(on connection: BenchConnection) {
        connection.counter += 1
        connection.phase = Phase.inFlight.rawValue
        connection.sentAt = loop.now
        sent += 1
        connection.sendText("{\"input\":\"number1\",\"value\":\"\(connection.counter)\"}")
    }

    private func finishSending() {
        // The last replies get a second to arrive.
        loop.schedule(after: 1) { [unowned self] in
            step = .sent
            let unanswered = ready.filter { $0.phase == Phase.inFlight.rawValue }.count
            if let path = options.latencyFile { latency.write(toFile: path) }
            say("hold: sent \(sent) replies \(replies) wrong \(wrong) errors \(errors + unanswered)")
        }
    }

    private func closeAll() {
        step = .closing
        end(grace: 10)
    }

    override func report() -> String { "hold: closed" }

    /// One line on stdout, flushed at once: the driving process waits for it.
    private func say(_ line: String) {
        print(line)
        fflush(nil)  // every output stream: stdout is a C global Swift 6 will not read
    }
}
