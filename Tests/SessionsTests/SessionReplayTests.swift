import Foundation
import RxSwift
import RxLiveForms
import ViewModels
import XCTest
@testable import Sessions

/// Replaying a recording against a declaration, on virtual time, with the recorded answers.
final class SessionReplayTests: XCTestCase {
    override func tearDown() {
        MainScheduler.resetHost()
    }

    private let sumRecording = """
        {"rxliveRecording":1,"viewModel":"sum","session":"a1","started":"","inputs":[{"name":"number1","kind":"text"},{"name":"number2","kind":"text"},{"name":"number3","kind":"text"}],"outputs":["sum"]}
        {"t":2181,"input":"number1","value":"1"}
        {"t":49978,"input":"number2","value":"2"}
        {"t":50046,"input":"number3","value":"3"}
        {"t":50101,"output":"sum","value":6}
        {"t":50462,"input":"number1","value":"10"}
        {"t":50473,"output":"sum","value":15}
        {"t":51749,"end":"closed"}
        """

    /// The sum form declared with another addition: a changed view model.
    private func sumDeclaration(adding offset: Int128) -> WireViewModel {
        WireViewModel(
            name: "sum",
            transform: { input in SumViewModel.Output(sum: SumViewModel().transform(input: input).sum.map { $0 + offset }) },
            input: { wire in
                SumViewModel.Input(number1: wire.text("number1"), number2: wire.text("number2"), number3: wire.text("number3"))
            },
            outputs: [WireOutput("sum", \.sum)])
    }

    func testASumRecordingReplaysTheSameAgainstTheSameDeclaration() throws {
        let outcome = SessionReplay.replay(try RecordedSession(jsonLines: sumRecording), with: servedWire("sum"))
        XCTAssertNil(outcome.difference)
        // number2 and number3 came in one millisecond (50): number3 one tick later, and number1 after it.
        XCTAssertEqual(outcome.outputs, [SessionReplay.Output(tick: 51, name: "sum", value: .element("6")),
                                         SessionReplay.Output(tick: 52, name: "sum", value: .element("15"))])
    }

    func testAChangedViewModelDiffersAtItsFirstChangedOutput() throws {
        let outcome = SessionReplay.replay(try RecordedSession(jsonLines: sumRecording), with: sumDeclaration(adding: 1))
        let difference = try XCTUnwrap(outcome.difference)
        XCTAssertEqual(difference, SessionReplay.Difference(output: "sum", milliseconds: 50, recorded: .element("6"), replayed: .element("7")))
        XCTAssertEqual(difference.description, "output \"sum\" at 0.050 s: recorded 6, now 7")
    }

    func testAMissingOutputIsADifference() throws {
        let recording = try RecordedSession(jsonLines: sumRecording.replacingOccurrences(of: "{\"t\":50473,\"output\":\"sum\",\"value\":15}\n", with: ""))
        let difference = try XCTUnwrap(SessionReplay.replay(recording, with: servedWire("sum")).difference)
        XCTAssertEqual(difference.recorded, nil)
        XCTAssertEqual(difference.replayed, .element("15"))
    }

    func testALoginReplaysWithTheRecordedAnswerWithoutThePasswordOrTheService() throws {
        let recording = try RecordedSession(jsonLines: """
            {"rxliveRecording":1,"viewModel":"login","session":"b2","started":"","inputs":[{"name":"username","kind":"text"},{"name":"password","kind":"text","secret":true},{"name":"loginTapped","kind":"tap"}],"outputs":["isLoginButtonEnabled","loginResult"]}
            {"t":749,"input":"username","value":"ada"}
            {"t":42715,"input":"password","secret":8}
            {"t":42788,"output":"isLoginButtonEnabled","value":true}
            {"t":43145,"input":"loginTapped"}
            {"t":43278,"call":"login","n":0}
            {"t":343170,"answer":"login","n":0,"value":true}
            {"t":343209,"output":"loginResult","value":true}
            {"t":343885,"end":"closed"}
            """)
        var forms = FormsSettings()
        forms.loginService = { _ in UnreachableLoginService() }
        let outcome = SessionReplay.replay(recording, with: servedWire("login", forms: forms))
        XCTAssertNil(outcome.difference)
        XCTAssertEqual(outcome.outputs.last, SessionReplay.Output(tick: 344, name: "loginResult", value: .element("true")))
    }

    func testARecordedServiceFailureIsReplayedAsItsError() throws {
        let lines = """
            {"rxliveRecording":1,"viewModel":"login","session":"c3","started":"","inputs":[],"outputs":[]}
            {"t":1000,"input":"username","value":"ada"}
            {"t":2000,"input":"password","secret":3}
            {"t":3000,"input":"loginTapped"}
            {"t":3100,"call":"login","n":0}
            {"t":9000,"answer":"login","n":0,"failure":FAILURE}
            """
        var forms = FormsSettings()
        forms.loginService = { _ in UnreachableLoginService() }
        // The form turns a `LoginServiceError` into a refusal and `loginResult` goes on; any
        // other error would fail the output.
        let declared = SessionReplay.replay(try RecordedSession(jsonLines: lines.replacingOccurrences(of: "FAILURE", with: #"{"unavailable":{}}"#)),
                                            with: servedWire("login", forms: forms))
        XCTAssertFalse(declared.outputs.contains { $0.name == "loginResult" }, "\(declared.outputs)")
        let other = SessionReplay.replay(try RecordedSession(jsonLines: lines.replacingOccurrences(of: "FAILURE", with: #"{"someday":{}}"#)),
                                         with: servedWire("login", forms: forms))
        XCTAssertEqual(other.outputs.last?.name, "loginResult")
        guard case .failure? = other.outputs.last?.value else { return XCTFail("\(other.outputs)") }
    }

    func testAVersion2OutputLineWithoutATimeIsAtTheTimeOfTheLineBeforeIt() throws {
        let recording = try RecordedSession(jsonLines: """
            {"rxliveRecording":2,"viewModel":"sum","session":"e5","started":"","inputs":[{"name":"number1","kind":"text"},{"name":"number2","kind":"text"},{"name":"number3","kind":"text"}],"outputs":["sum"]}
            {"t":2181,"input":"number1","value":"1"}
            {"t":49978,"input":"number2","value":"2"}
            {"t":50046,"input":"number3","value":"3"}
            {"output":"sum","value":6}
            {"t":70462,"input":"number1","value":"10"}
            {"output":"sum","value":15}
            {"t":71749,"end":"closed"}
            """)
        XCTAssertEqual(recording.events.map(\.time), [2181, 49978, 50046, 50046, 70462, 70462])
        let outcome = SessionReplay.replay(recording, with: servedWire("sum"))
        XCTAssertNil(outcome.difference)
        XCTAssertEqual(outcome.outputs, [SessionReplay.Output(tick: 51, name: "sum", value: .element("6")),
                                         SessionReplay.Output(tick: 70, name: "sum", value: .element("15"))])
    }

    func testAFormatThisBuildDoesNotReadIsRefusedWithTheVersionsItReads() {
        XCTAssertThrowsError(try RecordedSession(jsonLines: #"{"rxliveRecording":3,"viewModel":"sum","inputs":[],"outputs":[]}"#)) { error in
            XCTAssertEqual("\(error)", "recording format 3; this build reads 1 to 2")
        }
    }

    func testInputsInOneMillisecondKeepTheirOrderOneTickApart() throws {
        let recording = try RecordedSession(jsonLines: """
            {"rxliveRecording":1,"viewModel":"sum","session":"d4","started":"","inputs":[],"outputs":[]}
            {"t":100,"input":"number1","value":"1"}
            {"t":200,"input":"number2","value":"2"}
            {"t":4600,"input":"number3","value":"3"}
            """)
        XCTAssertEqual(ReplayTicks.inputTicks(recording), [1, 2, 5])
    }
}

/// A login service a replay must never ask.
private struct UnreachableLoginService: LoginService {
    func login() -> Observable<Bool> {
        XCTFail("the replay asked the service")
        return .just(false)
    }
}
