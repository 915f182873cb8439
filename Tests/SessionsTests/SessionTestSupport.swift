import Logging
import RxSwift
import RxLiveForms
@testable import Sessions

/// A connection that records what a session sends; "owner thread" is simulated.
final class FakeTransport: SessionTransport, @unchecked Sendable {  // used from the test's thread only
    var sent: [String] = []
    var closeCode: UInt16?
    var isOnOwnerThread = true
    var deferredWork: [@Sendable () -> Void] = []

    func send(text: String) { sent.append(text) }
    func close(code: UInt16, reason: String) { closeCode = code }
    func executeOnOwnerThread(_ work: @escaping @Sendable () -> Void) { deferredWork.append(work) }

    /// Runs the work handed to `executeOnOwnerThread`, as the owner thread would.
    func runDeferredWork() {
        let work = deferredWork
        deferredWork = []
        isOnOwnerThread = true
        work.forEach { $0() }
    }

    /// Everything sent since the last call.
    func takeSent() -> [String] {
        defer { sent = [] }
        return sent
    }
}

/// A monotonic clock the test moves by hand.
final class ManualClock: @unchecked Sendable {  // used from the test's thread only
    var nanoseconds: UInt64 = 1_000_000_000
    func advance(milliseconds: UInt64) { nanoseconds += milliseconds * 1_000_000 }
}

extension Logger {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// `{"input":"<name>","value":"<value>"}`.
func textMessage(_ name: String, _ value: String) -> String {
    "{\"input\":\"\(name)\",\"value\":\"\(value)\"}"
}

func tapMessage(_ name: String) -> String {
    "{\"input\":\"\(name)\"}"
}

func output(_ name: String, _ json: String) -> String {
    "{\"output\":\"\(name)\",\"value\":\(json)}"
}

/// The wire declaration `rxlive` serves as `name`: login and sum from the forms' catalog
/// with `forms`, the dashboard of `monitor`.
func servedWire(_ name: String, forms: FormsSettings = FormsSettings(), monitor: SessionMonitor = SessionMonitor()) -> WireViewModel {
    if name == "dashboard" { return .dashboard(monitor: monitor) }
    return FormsCatalog.viewModels(forms).first { $0.name == name }!
}

/// A session of `wire` on `transport`, opened (its `ready` is in `transport.sent`).
func openedSession(_ wire: WireViewModel, on transport: FakeTransport) -> Session {
    let endpoint = SessionEndpoint(wire: wire, configuration: SessionConfiguration(),
                                   metrics: SessionMetrics(viewModels: [wire.name]), logger: .quiet)
    let session = Session(endpoint: endpoint, transport: transport)
    session.open()
    return session
}
