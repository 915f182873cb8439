import Logging
import RxSwift
import XCTest
@testable import Sessions

/// A signed-in session: `ready` names the user, the view model reads it from its client, a
/// sign-out (log out here or anywhere) tells the client, disposes the graph and closes with
/// 4001, and anonymous sessions are never listed.
final class SignedInSessionTests: XCTestCase {
    private var transport: FakeTransport!
    private var configuration: SessionConfiguration!

    override func setUp() {
        transport = FakeTransport()
        configuration = SessionConfiguration()
    }

    private func open(_ wire: WireViewModel, as user: SignedInUser?) -> Session {
        let endpoint = SessionEndpoint(wire: wire, configuration: configuration,
                                       metrics: SessionMetrics(viewModels: [wire.name]), logger: .quiet)
        let session = Session.make(endpoint: endpoint, transport: transport, identity: user)
        session.open(clientAddress: "198.51.100.7")
        return session
    }

    /// Greets whoever the client is, from `WireClient.user`.
    private let greeting = WireViewModel(
        name: "greeting", access: .signedIn,
        context: { client in client.user?.name ?? "nobody" },
        transform: { (name: String, tap: Observable<Void>) in tap.map { "hello, \(name)" } },
        input: { wire, _ in wire.tap("hello") },
        outputs: [WireOutput("greeting", \.self)])

    func testReadyNamesTheUserAndTheViewModelReadsIt() throws {
        let session = open(greeting, as: SignedInUser(name: "ada \"the first\"", sessionID: "0123456789abcdef"))
        let ready = try XCTUnwrap(transport.takeSent().first)
        XCTAssertTrue(ready.hasPrefix(#"{"ready":{"viewModel":"greeting","session":""#), ready)
        XCTAssertTrue(ready.contains(#","user":"ada \"the first\"","inputs":{"hello":"tap"}"#), ready)
        session.receive(tapMessage("hello"))
        XCTAssertEqual(transport.takeSent(), [#"{"output":"greeting","value":"hello, ada \"the first\""}"#])
        session.close()
    }

    func testAnAnonymousReadyHasNoUserAndIsNotListed() throws {
        let session = open(servedWire("sum"), as: nil)
        XCTAssertFalse(try XCTUnwrap(transport.takeSent().first).contains("\"user\""))
        XCTAssertEqual(configuration.signedInSessions.count, 0)
        XCTAssertEqual(configuration.signedInSessions.signOut(user: "ada", reason: "x"), 0)
        session.close()
    }

    func testSigningOutTellsTheClientDisposesTheGraphAndClosesWith4001() throws {
        let start = Resources.total
        let ada = SignedInUser(name: "ada", sessionID: "aaaaaaaaaaaaaaaa")
        let session = open(servedWire("sum"), as: ada)
        let other = Session.make(endpoint: SessionEndpoint(wire: servedWire("sum"), configuration: configuration,
                                                           metrics: SessionMetrics(viewModels: ["sum"]), logger: .quiet),
                                 transport: FakeTransport(), identity: SignedInUser(name: "grace", sessionID: "bbbbbbbbbbbbbbbb"))
        other.open(clientAddress: "")
        XCTAssertEqual(configuration.signedInSessions.count, 2)
        XCTAssertGreaterThan(Resources.total, start)
        _ = transport.takeSent()

        XCTAssertEqual(configuration.signedInSessions.signOut(sessionID: "aaaaaaaaaaaaaaaa", reason: "logged out"), 1)
        transport.runDeferredWork()  // the sign-out runs on the session's own thread
        XCTAssertEqual(transport.takeSent(), [#"{"signedOut":{"reason":"logged out"}}"#])
        XCTAssertEqual(transport.closeCode, 4001)
        XCTAssertEqual(configuration.signedInSessions.count, 1, "grace's session is still listed")
        session.receive(textMessage("number1", "1"))
        XCTAssertEqual(transport.takeSent(), [], "nothing is fed or sent after the sign-out")

        XCTAssertEqual(configuration.signedInSessions.signOut(user: "grace", reason: "logged out everywhere"), 1)
        other.close()
        XCTAssertEqual(configuration.signedInSessions.count, 0)
        session.close()
        XCTAssertEqual(Resources.total, start, "both graphs are released")
    }

    func testASessionWhoseSignInReachedItsLifetimeIsSignedOut() {
        let session = open(servedWire("sum"), as: SignedInUser(name: "ada", sessionID: "dddddddddddddddd", expiresAt: 1_000))
        _ = transport.takeSent()
        XCTAssertEqual(configuration.signedInSessions.signOutExpired(now: 999.5), 0, "not yet")
        XCTAssertEqual(configuration.signedInSessions.signOutExpired(now: 1_000), 1)
        transport.runDeferredWork()
        XCTAssertEqual(transport.takeSent(), [#"{"signedOut":{"reason":"expired"}}"#])
        XCTAssertEqual(transport.closeCode, 4001)
        session.close()
    }

    func testAClosedSessionLeavesTheList() {
        let session = open(servedWire("sum"), as: SignedInUser(name: "ada", sessionID: "cccccccccccccccc"))
        XCTAssertEqual(configuration.signedInSessions.count, 1)
        session.close()
        XCTAssertEqual(configuration.signedInSessions.count, 0)
        XCTAssertEqual(configuration.signedInSessions.signOut(sessionID: "cccccccccccccccc", reason: "x"), 0)
    }
}
