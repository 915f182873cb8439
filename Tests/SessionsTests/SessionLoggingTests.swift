import Logging
import Synchronization
import XCTest
@testable import Sessions

/// A session's open and close are logged at debug level, and only where the endpoint's logger
/// takes debug messages (the endpoint reads the level once).
final class SessionLoggingTests: XCTestCase {
    func testADebugLoggerGetsTheOpenAndTheCloseWithTheSessionsID() {
        let lines = LogLines()
        let session = session(loggingTo: lines, at: .debug)
        session.open()
        session.close()
        XCTAssertEqual(lines.all, [
            "debug session opened session=\(session.id) viewModel=sum",
            "debug session closed session=\(session.id)",
        ])
    }

    func testAnInfoLoggerGetsNeither() {
        let lines = LogLines()
        let session = session(loggingTo: lines, at: .info)
        session.open()
        session.close()
        XCTAssertEqual(lines.all, [])
    }

    private func session(loggingTo lines: LogLines, at level: Logger.Level) -> Session {
        var logger = Logger(label: "test", factory: { _ in LinesLogHandler(lines: lines) })
        logger.logLevel = level
        let endpoint = SessionEndpoint(wire: servedWire("sum"), configuration: SessionConfiguration(),
                                       metrics: SessionMetrics(viewModels: ["sum"]), logger: logger)
        return Session(endpoint: endpoint, transport: FakeTransport())
    }
}

/// What a `LinesLogHandler` was given, one line per message: level, text, metadata by key.
private final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

private struct LinesLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lines.append(([event.level.rawValue, event.message.description] + fields).joined(separator: " "))
    }
}
