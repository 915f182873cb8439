import RxSwift
import RxTest
import RxLiveForms
import ViewModels
import XCTest
@testable import Sessions

final class SessionTests: XCTestCase {
    private var transport: FakeTransport!
    private var clock: ManualClock!
    private var metrics: SessionMetrics!

    override func setUp() {
        transport = FakeTransport()
        clock = ManualClock()
        metrics = SessionMetrics(viewModels: ["login", "sum"])
    }

    override func tearDown() {
        MainScheduler.resetHost()
    }

    private func openSession(_ name: String, configuration: SessionConfiguration = SessionConfiguration(),
                             forms: FormsSettings = FormsSettings(), loop: Int = 0) -> Session {
        let clock = clock!
        let endpoint = SessionEndpoint(
            wire: servedWire(name, forms: forms), configuration: configuration, metrics: metrics, logger: .quiet,
            loop: loop, clock: { clock.nanoseconds })
        let session = Session(endpoint: endpoint, transport: transport)
        session.open()
        return session
    }

    private func errorCode(_ message: String) -> String? {
        guard message.hasPrefix("{\"error\":{\"code\":\"") else { return nil }
        return message.dropFirst(18).split(separator: "\"").first.map(String.init)
    }

    // MARK: ready

    func testReadyComesFirstInTheProtocolShape() {
        let login = openSession("login")
        XCTAssertEqual(transport.takeSent(), [
            "{\"ready\":{\"viewModel\":\"login\",\"session\":\"\(login.id)\",\"inputs\":{\"username\":\"text\",\"password\":\"text\",\"loginTapped\":\"tap\"},\"outputs\":[\"isLoginButtonEnabled\",\"loginResult\"]}}",
        ])
        let sum = openSession("sum")
        XCTAssertEqual(transport.takeSent(), [
            "{\"ready\":{\"viewModel\":\"sum\",\"session\":\"\(sum.id)\",\"inputs\":{\"number1\":\"text\",\"number2\":\"text\",\"number3\":\"text\"},\"outputs\":[\"sum\"]}}",
        ])
        XCTAssertNotEqual(login.id, sum.id)
        XCTAssertFalse(login.id.isEmpty)
    }

    func testOpeningTwiceSendsReadyOnce() {
        let session = openSession("sum")
        session.open()
        XCTAssertEqual(transport.takeSent().count, 1)
        XCTAssertEqual(metrics.sessionsOpen, 1)
    }

    // MARK: sum

    func testSumSessionStreamsEverySum() {
        let session = openSession("sum")
        _ = transport.takeSent()
        session.receive(textMessage("number1", "1"))
        session.receive(textMessage("number2", "2"))
        XCTAssertEqual(transport.takeSent(), [], "no sum before all three fields have a value")
        session.receive(textMessage("number3", "3"))
        session.receive(textMessage("number1", "x"))
        session.receive(textMessage("number2", "-20"))
        session.receive(textMessage("number3", "9223372036854775807"))
        XCTAssertEqual(transport.takeSent(), [
            output("sum", "6"), output("sum", "5"), output("sum", "-17"), output("sum", "9223372036854775787"),
        ])
    }

    func testRefusedMessagesAnswerAnErrorAndLeaveTheSessionAsItWas() {
        let session = openSession("sum")
        session.receive(textMessage("number1", "1"))
        session.receive(textMessage("number2", "2"))
        session.receive(textMessage("number3", "3"))
        _ = transport.takeSent()
        let refused: [(String, String)] = [
            ("not json", "bad_json"), ("[]", "bad_json"), ("{\"input\":\"number1\",\"value\":\"1\",\"x\":1}", "bad_json"),
            ("{\"input\":\"number1\",\"value\":" + String(repeating: "[", count: 10_000) + "}", "bad_json"),
            (textMessage("number4", "1"), "unknown_input"), (tapMessage("loginTapped"), "unknown_input"),
            (tapMessage("number1"), "bad_value"), ("{\"input\":\"number1\",\"value\":5}", "bad_value"),
            ("{\"input\":\"number1\",\"value\":null}", "bad_value"),
        ]
        for (message, code) in refused {
            session.receive(message)
            let sent = transport.takeSent()
            XCTAssertEqual(sent.count, 1, message)
            XCTAssertEqual(sent.first.flatMap(errorCode), code, message)
        }
        session.receive(textMessage("number2", "10"))
        XCTAssertEqual(transport.takeSent(), [output("sum", "14")], "the refusals changed nothing")
        XCTAssertEqual(metrics.errorsSentTotal, refused.count)
        XCTAssertEqual(metrics.messagesReceived, 3 + refused.count + 1)
    }

    // MARK: login

    func testLoginSessionAnswersAfterTheLoginDelay() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        MainScheduler.setHost(scheduler)
        let session = openSession("login", forms: FormsSettings(loginDelay: .milliseconds(300)))
        _ = transport.takeSent()
        scheduler.advanceTo(100)
        session.receive(tapMessage("loginTapped"))
        XCTAssertEqual(transport.takeSent(), [], "a tap before the fields have values answers nothing")
        session.receive(textMessage("username", "ann"))
        session.receive(textMessage("password", ""))
        session.receive(tapMessage("loginTapped"))
        session.receive(textMessage("password", "pw"))
        XCTAssertEqual(transport.takeSent(), [
            output("isLoginButtonEnabled", "false"), output("loginResult", "false"), output("isLoginButtonEnabled", "true"),
        ])
        session.receive(tapMessage("loginTapped"))
        scheduler.advanceTo(399)
        XCTAssertEqual(transport.takeSent(), [])
        scheduler.advanceTo(400)
        XCTAssertEqual(transport.takeSent(), [output("loginResult", "true")])
    }

    func testCloseMidLoginCancelsItSendsNothingAndFreesEverything() {
        let start = Resources.total
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        MainScheduler.setHost(scheduler)
        do {
            let session = openSession("login")
            session.receive(textMessage("username", "ann"))
            session.receive(textMessage("password", "pw"))
            session.receive(tapMessage("loginTapped"))
            scheduler.advanceTo(1000)
            _ = transport.takeSent()
            session.close()
            XCTAssertEqual(metrics.sessionsOpen, 0)
            session.receive(tapMessage("loginTapped"))
            scheduler.advanceTo(10_000)
            XCTAssertEqual(transport.takeSent(), [], "nothing is sent after close")
            XCTAssertEqual(metrics.messagesReceived, 3, "messages after close are ignored")
        }
        MainScheduler.resetHost()
        XCTAssertEqual(Resources.total, start, "the session's whole graph and its timer are released")
    }

    func testOutputsFromAnotherThreadHopToTheOwnerThread() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        MainScheduler.setHost(scheduler)
        let session = openSession("login")
        session.receive(textMessage("username", "ann"))
        session.receive(textMessage("password", "pw"))
        session.receive(tapMessage("loginTapped"))
        _ = transport.takeSent()
        transport.isOnOwnerThread = false
        scheduler.advanceTo(2000)
        XCTAssertEqual(transport.takeSent(), [], "not sent from a foreign thread")
        XCTAssertEqual(transport.deferredWork.count, 1)
        transport.runDeferredWork()
        XCTAssertEqual(transport.takeSent(), [output("loginResult", "true")])
    }

    func testOutputHoppingAfterCloseIsDropped() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        MainScheduler.setHost(scheduler)
        let session = openSession("login")
        session.receive(textMessage("username", "ann"))
        session.receive(textMessage("password", "pw"))
        session.receive(tapMessage("loginTapped"))
        _ = transport.takeSent()
        transport.isOnOwnerThread = false
        scheduler.advanceTo(2000)
        session.close()
        transport.runDeferredWork()
        XCTAssertEqual(transport.takeSent(), [])
    }

    // MARK: rate limits

    func testTooManyMessagesAreRateLimitedUntilTheBucketRefills() {
        var configuration = SessionConfiguration()
        configuration.messageLimit = RateLimit(perSecond: 10, burst: 3)
        let session = openSession("sum", configuration: configuration)
        _ = transport.takeSent()
        session.receive(textMessage("number1", "1"))
        session.receive(textMessage("number2", "2"))
        session.receive(textMessage("number3", "3"))
        session.receive(textMessage("number3", "4"))
        var sent = transport.takeSent()
        XCTAssertEqual(sent.first, output("sum", "6"))
        XCTAssertEqual(sent.dropFirst().map(errorCode), ["rate_limited"])
        clock.advance(milliseconds: 99)
        session.receive(textMessage("number3", "4"))
        XCTAssertEqual(transport.takeSent().map(errorCode), ["rate_limited"])
        clock.advance(milliseconds: 1)
        session.receive(textMessage("number3", "4"))
        sent = transport.takeSent()
        XCTAssertEqual(sent, [output("sum", "7")], "one token after 100 ms at 10 per second")
    }

    func testTooManyLoginTapsAreRateLimited() {
        var forms = FormsSettings()
        forms.loginTapLimit = RateLimit(perSecond: 0.5, burst: 2)
        let session = openSession("login", forms: forms)
        session.receive(textMessage("username", ""))
        session.receive(textMessage("password", ""))
        _ = transport.takeSent()
        for _ in 0..<3 { session.receive(tapMessage("loginTapped")) }
        session.receive(textMessage("username", "a"))
        XCTAssertEqual(transport.takeSent(), [
            output("loginResult", "false"), output("loginResult", "false"),
            "{\"error\":{\"code\":\"rate_limited\",\"message\":\"too many \\\"loginTapped\\\" taps; wait a moment\"}}",
            output("isLoginButtonEnabled", "false"),
        ], "text inputs are not limited by the tap limit")
        clock.advance(milliseconds: 2000)
        session.receive(tapMessage("loginTapped"))
        XCTAssertEqual(transport.takeSent(), [output("loginResult", "false")])
    }

    func testDefaultLimitsAllowAPersonTyping() {
        let session = openSession("sum")
        _ = transport.takeSent()
        // 30 keystrokes a second for ten seconds, far beyond a person.
        for index in 0..<300 {
            session.receive(textMessage("number\(index % 3 + 1)", "\(index)"))
            clock.advance(milliseconds: 33)
        }
        XCTAssertFalse(transport.takeSent().contains { errorCode($0) != nil })
    }

    // MARK: a failing output, and a third view model in a few lines

    func testAFailingOutputClosesTheSessionWithInternalError() {
        struct Failure: Error {}
        struct EchoViewModel: ViewModelType {
            struct Input { let text: Observable<String> }
            struct Output { let echo: Observable<String> }
            func transform(input: Input) -> Output {
                Output(echo: input.text.map { text in
                    if text == "fail" { throw Failure() }
                    return text
                })
            }
        }
        let echo = WireViewModel(
            name: "echo", transform: { EchoViewModel().transform(input: $0) },
            input: { wire in EchoViewModel.Input(text: wire.text("text")) },
            outputs: [WireOutput("echo", \.echo)])
        let endpoint = SessionEndpoint(wire: echo, configuration: SessionConfiguration(), metrics: metrics, logger: .quiet)
        let session = Session(endpoint: endpoint, transport: transport)
        session.open()
        session.receive(textMessage("text", "hi \\\"there\\\""))
        XCTAssertEqual(transport.takeSent().dropFirst(), [output("echo", "\"hi \\\"there\\\"\"")])
        session.receive(textMessage("text", "fail"))
        XCTAssertEqual(transport.closeCode, 1011)
        XCTAssertEqual(transport.takeSent(), [])
    }

    func testAViewModelWithMoreInputsThanTheSessionKeepsInlineFeedsEachOne() {
        // Up to three inputs live inline in the session; a fourth takes the array form.
        struct ConcatViewModel: ViewModelType {
            struct Input { let parts: [Observable<String>] }
            struct Output { let joined: Observable<String> }
            func transform(input: Input) -> Output {
                Output(joined: Observable.combineLatest(input.parts).map { $0.joined(separator: "-") })
            }
        }
        let names = ["a", "b", "c", "d"]
        let concat = WireViewModel(
            name: "concat", transform: { ConcatViewModel().transform(input: $0) },
            input: { wire in ConcatViewModel.Input(parts: names.map { wire.text($0) }) },
            outputs: [WireOutput("joined", \.joined)])
        let endpoint = SessionEndpoint(wire: concat, configuration: SessionConfiguration(), metrics: metrics, logger: .quiet)
        let session = Session(endpoint: endpoint, transport: transport)
        session.open()
        _ = transport.takeSent()
        for name in names { session.receive(textMessage(name, name.uppercased())) }
        session.receive(textMessage("d", "4"))
        XCTAssertEqual(transport.takeSent(), [output("joined", "\"A-B-C-D\""), output("joined", "\"A-B-C-4\"")])
        session.close()
    }

    // MARK: metrics

    func testMetricsCountSessionsAndMessages() {
        let first = openSession("sum")
        let second = openSession("login")
        XCTAssertEqual(metrics.sessionsOpen, 2)
        XCTAssertEqual(metrics.sessionsOpen("sum"), 1)
        XCTAssertEqual(metrics.sessionsOpen("login"), 1)
        first.receive(textMessage("number1", "1"))
        first.receive("{")
        first.close()
        first.close()
        XCTAssertEqual(metrics.sessionsOpen, 1)
        XCTAssertEqual(metrics.sessionsOpen("sum"), 0)
        XCTAssertEqual(metrics.sessionsOpen("login"), 1)
        second.close()
        XCTAssertEqual(metrics.sessionsOpen, 0)
        XCTAssertEqual(metrics.sessionsOpen("login"), 0)
        XCTAssertEqual(metrics.sessionsTotal("login"), 1)
        XCTAssertEqual(metrics.sessionsTotal("sum"), 1)
        XCTAssertEqual(metrics.messagesReceived, 2)
        XCTAssertEqual(metrics.messagesSent, 3)
        XCTAssertEqual(metrics.errorsSentTotal, 1)
    }

    func testMetricsKeepSessionsPerLoopAndSumThem() {
        metrics = SessionMetrics(viewModels: ["login", "sum"], loopCount: 3)
        let sessions = [openSession("sum", loop: 0), openSession("sum", loop: 2), openSession("login", loop: 2)]
        XCTAssertEqual(metrics.sessionsOpenPerLoop, [1, 0, 2])
        sessions[1].close()
        XCTAssertEqual(metrics.sessionsOpenPerLoop, [1, 0, 1])
        XCTAssertEqual(metrics.sessionsTotalPerLoop, [1, 0, 2])
        XCTAssertEqual(metrics.sessionsOpen, 2)
        for session in sessions { session.close() }
        XCTAssertEqual(metrics.sessionsOpenPerLoop, [0, 0, 0])
    }
}
