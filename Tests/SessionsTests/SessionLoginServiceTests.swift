import RxSwift
import RxTest
import ViewModels
import RxLiveForms
import XCTest
@testable import Sessions

/// A login service whose answers are recorded events on a `TestScheduler`, so a session
/// with a real service's failure modes runs on virtual time.
private final class ScriptedLoginService: LoginService, @unchecked Sendable {  // used on the test's thread only
    let scheduler: TestScheduler
    var answer: [Recorded<Event<Bool>>]
    private(set) var requests: [(username: String, password: String)] = []
    private(set) var observables: [TestableObservable<Bool>] = []

    init(scheduler: TestScheduler, answer: [Recorded<Event<Bool>>]) {
        self.scheduler = scheduler
        self.answer = answer
    }

    func login() -> Observable<Bool> {
        XCTFail("the session must ask with the credentials")
        return .just(false)
    }

    func login(username: String, password: String) -> Observable<Bool> {
        requests.append((username, password))
        let observable = scheduler.createColdObservable(answer)
        observables.append(observable)
        return observable.asObservable()
    }
}

final class SessionLoginServiceTests: XCTestCase {
    private var transport: FakeTransport!
    private var scheduler: TestScheduler!
    private var service: ScriptedLoginService!
    private var addresses: [String] = []

    override func setUp() {
        transport = FakeTransport()
        scheduler = TestScheduler(initialClock: 0)
        service = ScriptedLoginService(scheduler: scheduler, answer: [.next(10, true), .completed(10)])
    }

    private func openLogin(clientAddress: String = "198.51.100.4") -> Session {
        let configuration = SessionConfiguration()
        let service = service!
        let addresses = AddressLog()
        var forms = FormsSettings()
        forms.loginService = { client in
            addresses.append(client.address)
            return service
        }
        let wire = servedWire("login", forms: forms)
        let endpoint = SessionEndpoint(wire: wire, configuration: configuration,
                                       metrics: SessionMetrics(viewModels: ["login"]), logger: .quiet)
        let session = Session(endpoint: endpoint, transport: transport)
        session.open(clientAddress: clientAddress)
        self.addresses = addresses.all
        _ = transport.takeSent()
        return session
    }

    private func fill(_ session: Session, username: String, password: String) {
        session.receive(textMessage("username", username))
        session.receive(textMessage("password", password))
    }

    func testTheServiceGetsTheClientAddressAndTheCredentialsOfTheTap() {
        let session = openLogin(clientAddress: "203.0.113.9")
        XCTAssertEqual(addresses, ["203.0.113.9"])
        fill(session, username: "ada", password: "first")
        session.receive(textMessage("password", "engine"))
        session.receive(tapMessage("loginTapped"))
        XCTAssertEqual(service.requests.map(\.username), ["ada"])
        XCTAssertEqual(service.requests.map(\.password), ["engine"], "the latest password at the tap")
        scheduler.advanceTo(10)
        XCTAssertEqual(transport.takeSent().last, output("loginResult", "true"))
    }

    func testAnUnavailableServiceIsReportedAndTheSessionCarriesOn() {
        service.answer = [.error(10, LoginServiceError.unavailable)]
        let session = openLogin()
        fill(session, username: "ada", password: "engine")
        _ = transport.takeSent()
        session.receive(tapMessage("loginTapped"))
        scheduler.advanceTo(10)
        XCTAssertEqual(transport.takeSent(), [
            "{\"error\":{\"code\":\"login_unavailable\",\"message\":\"the login service is unavailable; try again later\"}}",
        ], "an error message, and no loginResult for that tap")
        XCTAssertNil(transport.closeCode, "the session stays open")

        service.answer = [.next(5, false), .completed(5)]
        session.receive(tapMessage("loginTapped"))
        scheduler.advanceTo(15)
        XCTAssertEqual(transport.takeSent(), [output("loginResult", "false")], "the next tap is answered")
    }

    func testAThrottledAttemptIsReportedWithItsWaitInWholeSeconds() {
        XCTAssertEqual(answerToATap(failingWith: .rateLimited(retryAfter: 3.2)), [
            "{\"error\":{\"code\":\"rate_limited\",\"message\":\"too many failed logins; try again in 4 s\",\"retryAfter\":4}}",
        ])
    }

    func testAFullHashingQueueIsReportedAsBusyNotAsFailedLogins() {
        XCTAssertEqual(answerToATap(failingWith: .busy(retryAfter: 0.4)), [
            "{\"error\":{\"code\":\"busy\",\"message\":\"the server is busy checking other logins; try again in 1 s\",\"retryAfter\":1}}",
        ])
    }

    /// What a filled-in form's tap is answered with when the service fails with `failure`.
    private func answerToATap(failingWith failure: LoginServiceError) -> [String] {
        service.answer = [.error(10, failure)]
        let session = openLogin()
        fill(session, username: "ada", password: "engine")
        _ = transport.takeSent()
        session.receive(tapMessage("loginTapped"))
        scheduler.advanceTo(10)
        return transport.takeSent()
    }

    func testClosingTheSessionCancelsThePendingLoginAndNothingIsSent() {
        let session = openLogin()
        fill(session, username: "ada", password: "engine")
        scheduler.advanceTo(3)
        session.receive(tapMessage("loginTapped"))
        _ = transport.takeSent()
        scheduler.advanceTo(5)
        session.close()
        scheduler.advanceTo(20)
        XCTAssertEqual(transport.takeSent(), [])
        XCTAssertEqual(service.observables.first?.subscriptions, [Subscription(3, 5)], "the request was disposed at the close")
    }
}

/// Addresses the factory was called with (the factory is `@Sendable`).
private final class AddressLog: @unchecked Sendable {  // used on the test's thread only
    private(set) var all: [String] = []
    func append(_ address: String) { all.append(address) }
}
