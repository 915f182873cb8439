import RxSwift
import XCTest
@testable import Sessions

/// Text inputs declared with an initial value (`wire.text(_:initial:)`), through a session:
/// the view model sees the initial values when the session opens, and a client's value reaches
/// it only when it differs from the input's current value (PROTOCOL.md, "First values").
final class FirstValueTests: XCTestCase {
    final class Log: @unchecked Sendable {  // used from the test's thread only
        var entries: [String] = []
    }

    private let log = Log()
    private var transport: FakeTransport!
    private var session: Session!

    override func setUp() {
        transport = FakeTransport()
        let log = log
        let wire = WireViewModel(
            name: "pair",
            transform: { (input: (name: Observable<String>, city: Observable<String>, plain: Observable<String>)) in
                (joined: Observable.combineLatest(input.name, input.city) { "\($0)|\($1)" }, plain: input.plain)
            },
            input: { wire in
                (name: wire.text("name", initial: "", onValue: { log.entries.append("onValue: \($0)") }),
                 city: wire.text("city", initial: "Paris"),
                 plain: wire.text("plain"))
            },
            outputs: [WireOutput("joined", \.joined), WireOutput("plain", \.plain)])
        log.entries.removeAll()  // the declaration's own call
        session = openedSession(wire, on: transport)
    }

    override func tearDown() {
        session.close()
    }

    func testTheInitialValuesReachTheViewModelWhenTheSessionOpensWithoutAnyMessage() {
        let sent = transport.takeSent()
        XCTAssertEqual(sent.count, 2, "\(sent)")
        XCTAssertTrue(sent.first?.hasPrefix(#"{"ready":"#) ?? false, "\(sent)")
        XCTAssertTrue(sent.first?.contains(#""inputs":{"name":"text","city":"text","plain":"text"}"#) ?? false, "\(sent)")
        XCTAssertEqual(sent.last, output("joined", #""|Paris""#))
        XCTAssertEqual(log.entries, ["onValue: "])
    }

    func testAReSentValueEqualToTheCurrentOneChangesNothingAndADifferentOneReplacesIt() {
        _ = transport.takeSent()
        // What the page sends after ready: its fields as they are, here as declared.
        session.receive(textMessage("name", ""))
        session.receive(textMessage("city", "Paris"))
        XCTAssertEqual(transport.takeSent(), [], "re-sending the initial values adds no output and no error")
        session.receive(textMessage("city", "Rome"))
        XCTAssertEqual(transport.takeSent(), [output("joined", #""|Rome""#)])
        session.receive(textMessage("name", "ada"))
        session.receive(textMessage("name", "ada"))
        XCTAssertEqual(transport.takeSent(), [output("joined", #""ada|Rome""#)], "the same value twice is passed on once")
        session.receive(textMessage("city", "Paris"))
        XCTAssertEqual(transport.takeSent(), [output("joined", #""ada|Paris""#)], "back to the initial value is a change")
        XCTAssertEqual(log.entries, ["onValue: ", "onValue: ada"])
    }

    func testAnInputWithoutAnInitialValueStillWaitsAndPassesOnEveryValue() {
        _ = transport.takeSent()
        session.receive(textMessage("plain", "x"))
        session.receive(textMessage("plain", "x"))
        XCTAssertEqual(transport.takeSent(), [output("plain", #""x""#), output("plain", #""x""#)])
    }
}
