import TLS
import WebSocket

/// What every mode shares: the loop, the connections, the hard deadline and the
/// orderly end (close every connection, then every timer, and stop the loop).
class BenchRun: BenchConnectionDelegate {
    let options: BenchOptions
    let loop: BenchLoop
    private(set) var connections: [Int: BenchConnection] = [:]
    private var nextID = 0
    private(set) var ending = false
    /// Connections that ended with an error, and the first few messages.
    private(set) var failures = 0
    private var failureMessages: [String: Int] = [:]
    /// With --deflate: the one inflater every connection of this single-threaded client shares.
    private lazy var inflater = PerMessageInflater()
    /// Set by a mode when the run could not produce its figures.
    var runError: String?
    /// With `--tls-ca`: the context every connection's TLS session comes from.
    private let tls: TLSClientContext?

    init(options: BenchOptions, loop: BenchLoop) throws(BenchError) {
        self.options = options
        self.loop = loop
        do {
            tls = try options.tlsAuthority.map { try TLSClientContext(trusting: $0) }
        } catch {
            throw BenchError.failed("\(error)")
        }
    }

    /// Starts the mode; the loop ends when `end()` has closed everything.
    func start() {
        loop.schedule(after: options.timeout) { [unowned self] in
            if runError == nil && !ending { runError = "timed out after \(format(options.timeout)) s" }
            end(grace: 0)
        }
        begin()
    }

    /// The mode's first step (override).
    func begin() {}

    /// The mode's report (override); printed after the loop ends.
    func report() -> String { "" }

    @discardableResult
    func openConnection(path: String) -> BenchConnection {
        let session = tls.flatMap { try? $0.makeSession() }
        let connection = BenchConnection(id: nextID, loop: loop, port: options.port, path: path, tls: session, delegate: self,
                                         inflater: options.deflate ? inflater : nil)
        nextID += 1
        connections[connection.id] = connection
        connection.connect()
        return connection
    }

    /// Closes every connection cleanly, drops the ones still open after `grace`
    /// seconds, then closes the timers so the loop returns.
    func end(grace: Double = 2) {
        if !ending {
            ending = true
            for connection in connections.values { connection.close() }
        }
        loop.schedule(after: grace) { [unowned self] in
            for connection in connections.values { connection.abort(error: "closed at the end of the run") }
            finishIfIdle(force: true)
        }
        finishIfIdle(force: false)
    }

    private func finishIfIdle(force: Bool) {
        if connections.isEmpty || force { loop.closeTimers() }
    }

    // MARK: BenchConnectionDelegate (modes override and call super where noted)

    func connectionDidOpen(_ connection: BenchConnection) {}

    func connection(_ connection: BenchConnection, didReceiveText text: UnsafeRawBufferPointer) {}

    /// Modes that override this must call `super`.
    func connectionDidClose(_ connection: BenchConnection, error: String?) {
        connections[connection.id] = nil
        if let error, !ending {
            failures += 1
            failureMessages[error, default: 0] += 1
        }
        if ending && connections.isEmpty { loop.closeTimers() }
    }

    /// "failures: 3 (connect: connection refused x3)" or "" when none.
    var failureSummary: String {
        guard failures > 0 else { return "" }
        let top = failureMessages.sorted { $0.value > $1.value }.prefix(3).map { "\($0.key) x\($0.value)" }
        return "failed connections: \(failures) (\(top.joined(separator: "; ")))"
    }
}

/// Byte-level helpers for reading the server's JSON without building Strings.
extension UnsafeRawBufferPointer {
    func contains(_ needle: StaticString) -> Bool { firstRange(of: needle) != nil }

    /// The index just past the first occurrence of `needle`.
    func firstRange(of needle: StaticString) -> Int? {
        let pattern = UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard pattern.count > 0, count >= pattern.count else { return nil }
        let first = pattern[0]
        var index = 0
        while index <= count - pattern.count {
            if self[index] == first {
                var matched = 1
                while matched < pattern.count && self[index + matched] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return index + pattern.count }
            }
            index += 1
        }
        return nil
    }

    /// The integer right after `key` (e.g. `"value":`), allowing spaces and a sign.
    func integer(after key: StaticString) -> Int? {
        guard var index = firstRange(of: key) else { return nil }
        while index < count && self[index] == UInt8(ascii: " ") { index += 1 }
        var negative = false
        if index < count && self[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        var value = 0
        var digits = 0
        while index < count, (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(self[index]), digits < 18 {
            value = value * 10 + Int(self[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits == 0 ? nil : (negative ? -value : value)
    }
}
