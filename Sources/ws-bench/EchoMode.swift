/// `echo`: every connection keeps one text message in flight against an echo
/// server; prints round trips per second and p50/p99 latency.
final class EchoMode: BenchRun {
    private var payload: [UInt8] = []
    private var opened = 0
    private var measuring = false
    private var measureStart: UInt64 = 0
    private var measureEnd: UInt64 = 0
    private var roundTrips = 0
    private var mismatches = 0
    private var latency = LatencyRecorder()

    override func begin() {
        payload = (0 ..< options.messageSize).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        for _ in 0 ..< options.connections { openConnection(path: options.path ?? "/") }
        // Start with whatever is open if some connections are slow or refused.
        loop.schedule(after: 5) { [unowned self] in startMeasuring() }
    }

    override func connectionDidOpen(_ connection: BenchConnection) {
        opened += 1
        if measuring {
            send(on: connection)
        } else if opened == options.connections {
            startMeasuring()
        }
    }

    private func startMeasuring() {
        guard !measuring && !ending else { return }
        guard opened > 0 else {
            runError = "no connection opened"
            return end(grace: 0)
        }
        measuring = true
        measureStart = loop.now
        for connection in connections.values where connection.state == .open { send(on: connection) }
        loop.schedule(after: options.seconds) { [unowned self] in
            measuring = false
            measureEnd = loop.now
            end()
        }
    }

    private func send(on connection: BenchConnection) {
        connection.sentAt = loop.now
        payload.withUnsafeBytes { connection.sendText(bytes: $0) }
    }

    override func connection(_ connection: BenchConnection, didReceiveText text: UnsafeRawBufferPointer) {
        guard measuring else { return }
        latency.record(loop.now - connection.sentAt)
        roundTrips += 1
        if text.count != payload.count { mismatches += 1 }
        send(on: connection)
    }

    override func report() -> String {
        let seconds = Double(measureEnd &- measureStart) / 1e9
        guard measureEnd > measureStart, seconds > 0 else { return "echo: no measurement" }
        var lines = ["echo: port \(options.port), \(opened)/\(options.connections) connections, "
                     + "\(options.messageSize)-byte messages, \(format(seconds)) s: "
                     + "\(format(Double(roundTrips) / seconds)) round trips/s, \(latency.summary())"]
        if mismatches > 0 { lines.append("echo: \(mismatches) replies of the wrong length") }
        if !failureSummary.isEmpty { lines.append("echo: " + failureSummary) }
        return lines.joined(separator: "\n")
    }
}
