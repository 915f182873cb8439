import RxSwift
import XCTest
@testable import Sessions

/// A text input declared with `onValue` (`WireInputs.text(_:secret:onValue:)`), through a
/// session: each accepted value reaches the closure just before the view model sees it, a
/// refused message reaches neither, and closing the session leaves no Rx resource behind.
final class ObservedTextInputTests: XCTestCase {
    /// Echoes its one text input, noting each element as the view model sees it.
    struct EchoViewModel {
        let log: Log
        func transform(input: Observable<String>) -> Observable<String> {
            input.map { text in
                log.entries.append("view model: \(text)")
                return text
            }
        }
    }

    final class Log: @unchecked Sendable {  // used from the test's thread only
        var entries: [String] = []
    }

    func testEachAcceptedValueReachesOnValueJustBeforeTheViewModelAndARefusalReachesNeither() {
        let start = Resources.total
        let log = Log()
        let wire = WireViewModel(
            name: "echo",
            transform: { EchoViewModel(log: log).transform(input: $0) },
            input: { wire in wire.text("name", secret: true, onValue: { log.entries.append("onValue: \($0)") }) },
            outputs: [WireOutput("echo", \.self)])
        let transport = FakeTransport()
        let endpoint = SessionEndpoint(wire: wire, configuration: SessionConfiguration(),
                                       metrics: SessionMetrics(viewModels: ["echo"]), logger: .quiet)
        let session = Session(endpoint: endpoint, transport: transport)
        session.open()
        XCTAssertTrue(transport.takeSent().first?.contains("\"name\"") ?? false, "ready lists the input")

        session.receive(textMessage("name", "ada"))
        session.receive("{\"input\":\"name\",\"value\":7}")
        session.receive(textMessage("name", "grace"))

        XCTAssertEqual(log.entries, ["onValue: ada", "view model: ada", "onValue: grace", "view model: grace"])
        let sent = transport.takeSent()
        XCTAssertEqual(sent.count, 3)
        XCTAssertEqual(sent[0], output("echo", "\"ada\""))
        XCTAssertTrue(sent[1].hasPrefix("{\"error\":{\"code\":\"bad_value\""), sent[1])
        XCTAssertEqual(sent[2], output("echo", "\"grace\""))

        session.close()
        session.receive(textMessage("name", "late"))
        XCTAssertEqual(log.entries.count, 4, "nothing reaches a closed session's input")
        XCTAssertEqual(Resources.total, start)
    }
}
