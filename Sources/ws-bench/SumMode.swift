/// `sum`: against rxlive's /ws/sum. After `ready` each session sets number2 = 2
/// and number3 = 3 once, then keeps one number1 change in flight and waits for
/// the matching `{"output":"sum","value":n+5}`; prints replies/s, p50, p99.
final class SumMode: BenchRun {
    private enum Phase: Int { case waitingReady = 0, ready, inFlight }

    private var ready = 0
    private var measuring = false
    private var measureStart: UInt64 = 0
    private var measureEnd: UInt64 = 0
    private var replies = 0
    private var errorMessages = 0
    private var unexpected = 0
    private var rateLimited = 0
    private var latency = LatencyRecorder()

    override func begin() {
        for _ in 0 ..< options.connections { openConnection(path: options.path ?? "/ws/sum") }
        loop.schedule(after: 5) { [unowned self] in startMeasuring() }
    }

    override func connection(_ connection: BenchConnection, didReceiveText text: UnsafeRawBufferPointer) {
        switch Phase(rawValue: connection.phase) ?? .waitingReady {
        case .waitingReady:
            guard text.contains("{\"ready\"") else { return }
            connection.sendText("{\"input\":\"number2\",\"value\":\"2\"}")
            connection.sendText("{\"input\":\"number3\",\"value\":\"3\"}")
            connection.phase = Phase.ready.rawValue
            ready += 1
            if measuring {
                send(on: connection)
            } else if ready == options.connections {
                startMeasuring()
            }
        case .ready:
            // number2/number3 alone give no sum (combineLatest waits for number1).
            if text.contains("\"error\"") { errorMessages += 1 } else { unexpected += 1 }
        case .inFlight:
            if text.contains("\"error\"") {
                // Refused: no sum will come for it. Retry a little later, so a server
                // that rate-limits is not answered with a flood.
                errorMessages += 1
                if text.contains("rate_limited") { rateLimited += 1 }
                loop.schedule(after: 0.01) { [unowned self] in
                    if measuring && connection.state == .open { send(on: connection) }
                }
            } else if text.contains("\"output\":\"sum\""), text.integer(after: "\"value\":") == connection.counter + 5 {
                if measuring {
                    latency.record(loop.now - connection.sentAt)
                    replies += 1
                    send(on: connection)
                } else {
                    connection.phase = Phase.ready.rawValue
                }
            } else {
                unexpected += 1
            }
        }
    }

    private func startMeasuring() {
        guard !measuring && !ending else { return }
        guard ready > 0 else {
            runError = "no session became ready"
            return end(grace: 0)
        }
        measuring = true
        measureStart = loop.now
        for connection in connections.values where connection.phase == Phase.ready.rawValue { send(on: connection) }
        loop.schedule(after: options.seconds) { [unowned self] in
            measuring = false
            measureEnd = loop.now
            end()
        }
    }

    private func send(on connection: BenchConnection) {
        connection.counter += 1
        connection.phase = Phase.inFlight.rawValue
        connection.sentAt = loop.now
        connection.sendText("{\"input\":\"number1\",\"value\":\"\(connection.counter)\"}")
    }

    override func report() -> String {
        let seconds = Double(measureEnd &- measureStart) / 1e9
        guard measureEnd > measureStart, seconds > 0 else { return "sum: no measurement" }
        var lines = ["sum: port \(options.port), \(ready)/\(options.connections) sessions, \(format(seconds)) s: "
                     + "\(format(Double(replies) / seconds)) replies/s, \(latency.summary())"]
        if errorMessages > 0 || unexpected > 0 {
            lines.append("sum: \(errorMessages) error messages (\(rateLimited) rate_limited), \(unexpected) unexpected messages")
            if rateLimited > 0 {
                lines.append("sum: the server rate-limits messages per session; run it without that limit to measure throughput")
            }
        }
        if !failureSummary.isEmpty { lines.append("sum: " + failureSummary) }
        return lines.joined(separator: "\n")
    }
}
