import RxSwift
import RxTest
import XCTest
import ViewModels

/// Marble tests on virtual time: one tick is one millisecond, so the login example's two-second
/// login delay is 2000 ticks.
final class LoginViewModelTests: XCTestCase {
    private let loginDelay = 2000

    private func makeScheduler() -> TestScheduler {
        TestScheduler(initialClock: 0, resolution: 0.001)
    }

    private struct Scenario {
        let isLoginButtonEnabled: TestableObserver<Bool>
        let loginResult: TestableObserver<Bool>
    }

    /// Runs the view model over hot inputs, subscribing at 0 and disposing at `disposeAt`.
    private func run(
        _ scheduler: TestScheduler,
        username: [Recorded<Event<String>>], password: [Recorded<Event<String>>], taps: [Recorded<Event<Void>>],
        viewModel: LoginViewModel? = nil, disposeAt: TestTime = 100_000
    ) -> Scenario {
        let input = LoginViewModel.Input(
            username: scheduler.createHotObservable(username).asObservable(),
            password: scheduler.createHotObservable(password).asObservable(),
            loginTapped: scheduler.createHotObservable(taps).asObservable())
        let model = viewModel ?? LoginViewModel(service: SimulatedLoginService(delay: .seconds(2), scheduler: scheduler))
        let output = model.transform(input: input)
        let scenario = Scenario(
            isLoginButtonEnabled: scheduler.createObserver(Bool.self),
            loginResult: scheduler.createObserver(Bool.self))
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(0) {
            subscriptions.append(output.isLoginButtonEnabled.subscribe(scenario.isLoginButtonEnabled))
            subscriptions.append(output.loginResult.subscribe(scenario.loginResult))
        }
        scheduler.scheduleAt(disposeAt) {
            subscriptions.forEach { $0.dispose() }
        }
        scheduler.start()
        return scenario
    }

    func testButtonStateFollowsFieldChanges() {
        let scheduler = makeScheduler()
        let scenario = run(
            scheduler,
            username: [.next(100, ""), .next(200, "a"), .next(400, "ab"), .next(600, "")],
            password: [.next(150, ""), .next(300, "p"), .next(500, ""), .next(700, "q")],
            taps: [])
        XCTAssertEqual(scenario.isLoginButtonEnabled.events, [
            .next(150, false), .next(200, false), .next(300, true), .next(400, true),
            .next(500, false), .next(600, false), .next(700, false),
        ])
        XCTAssertEqual(scenario.loginResult.events, [])
    }

    func testNothingUntilBothFieldsHaveAValue() {
        let scheduler = makeScheduler()
        let scenario = run(scheduler, username: [.next(100, "a"), .next(200, "b")], password: [], taps: [.next(300, ())])
        XCTAssertEqual(scenario.isLoginButtonEnabled.events, [])
        XCTAssertEqual(scenario.loginResult.events, [], "a tap before the fields have values has nothing to be combined with")
    }

    func testValidTapGivesTrueExactlyOneLoginDelayLater() {
        let scheduler = makeScheduler()
        let scenario = run(scheduler, username: [.next(100, "user")], password: [.next(110, "pw")], taps: [.next(300, ())])
        XCTAssertEqual(scenario.loginResult.events, [.next(300 + loginDelay, true)])
    }

    func testInvalidTapGivesFalseAtOnce() {
        let scheduler = makeScheduler()
        let scenario = run(scheduler, username: [.next(100, "user")], password: [.next(110, "")], taps: [.next(300, ()), .next(700, ())])
        XCTAssertEqual(scenario.loginResult.events, [.next(300, false), .next(700, false)])
    }

    func testSecondTapDuringAPendingLoginCancelsTheFirst() {
        let scheduler = makeScheduler()
        let scenario = run(scheduler, username: [.next(100, "user")], password: [.next(110, "pw")], taps: [.next(300, ()), .next(1300, ())])
        XCTAssertEqual(scenario.loginResult.events, [.next(1300 + loginDelay, true)])
    }

    func testInvalidTapDuringAPendingLoginCancelsItAndAnswersFalse() {
        let scheduler = makeScheduler()
        let scenario = run(
            scheduler, username: [.next(100, "user")], password: [.next(110, "pw"), .next(800, "")],
            taps: [.next(300, ()), .next(1000, ())])
        XCTAssertEqual(scenario.loginResult.events, [.next(1000, false)])
    }

    func testDisposingDuringAPendingLoginCancelsIt() {
        let scheduler = makeScheduler()
        let scenario = run(
            scheduler, username: [.next(100, "user")], password: [.next(110, "pw")], taps: [.next(300, ())],
            disposeAt: 1000)
        XCTAssertEqual(scenario.loginResult.events, [])
    }

    func testConfigurableDelay() {
        let scheduler = makeScheduler()
        let model = LoginViewModel(service: SimulatedLoginService(delay: .milliseconds(300), scheduler: scheduler))
        let scenario = run(scheduler, username: [.next(100, "u")], password: [.next(100, "p")], taps: [.next(500, ())], viewModel: model)
        XCTAssertEqual(scenario.loginResult.events, [.next(800, true)])
    }

    /// The default view model runs the login example's own line: two seconds on MainScheduler.instance.
    func testDefaultIsTheExampleSimulationOnMainScheduler() {
        let scheduler = makeScheduler()
        MainScheduler.setHost(scheduler)
        defer { MainScheduler.resetHost() }
        let scenario = run(scheduler, username: [.next(100, "u")], password: [.next(100, "p")], taps: [.next(500, ())], viewModel: LoginViewModel())
        XCTAssertEqual(scenario.loginResult.events, [.next(2500, true)])
    }

    func testAnInjectedServiceAnswers() {
        struct Refusing: LoginService {
            func login() -> Observable<Bool> { Observable.just(false) }
        }
        let scheduler = makeScheduler()
        let scenario = run(scheduler, username: [.next(100, "u")], password: [.next(100, "p")], taps: [.next(500, ())], viewModel: LoginViewModel(service: Refusing()))
        XCTAssertEqual(scenario.loginResult.events, [.next(500, false)])
    }

    func testResourcesReturnToStartAfterDisposalMidLogin() {
        let start = Resources.total
        var whilePending: Int32 = 0
        var afterDisposal: Int32 = 0
        do {
            let scheduler = makeScheduler()
            scheduler.scheduleAt(500) { whilePending = Resources.total }
            scheduler.scheduleAt(1001) { afterDisposal = Resources.total }
            let scenario = run(
                scheduler, username: [.next(100, "u")], password: [.next(100, "p")], taps: [.next(300, ())],
                disposeAt: 1000)
            XCTAssertEqual(scenario.isLoginButtonEnabled.events, [.next(100, true)])
            XCTAssertEqual(scenario.loginResult.events, [])
        }
        // The pending delay holds a scheduled item and sinks; disposal frees them at once.
        XCTAssertGreaterThan(whilePending, afterDisposal)
        XCTAssertEqual(Resources.total, start)
    }
}
