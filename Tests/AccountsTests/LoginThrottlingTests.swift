import Foundation
import XCTest
@testable import Accounts

/// Throttling slows attackers, not users: the scenarios of docs/SECURITY.md, "Login throttling".
final class LoginThrottlingTests: XCTestCase {
    private var folder: URL!
    private let clock = TestClock()

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-throttle-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var path: String { folder.appendingPathComponent("accounts.sqlite").path }

    private func makeStore() throws -> CredentialStore {
        let clock = clock
        let store = CredentialStore(database: SQLiteDatabase(path: path), hasher: try PasswordHasher(parameters: testParameters),
                                    clock: { clock.seconds })
        try store.migrate()
        _ = try store.addAccount("ada", password: "engine")
        return store
    }

    /// Wrong passwords for `username` from `address`, each after the wait the last one asked for.
    private func hammer(_ store: CredentialStore, _ username: String, from address: String, times: Int) {
        for _ in 0..<times {
            if case .throttled(let wait) = store.authenticate(username: username, password: "guess", clientAddress: address) {
                clock.seconds += wait
                _ = store.authenticate(username: username, password: "guess", clientAddress: address)
            }
        }
    }

    func testAnAttackerElsewhereDoesNotLockTheUserOut() throws {
        let store = try makeStore()
        hammer(store, "ada", from: "203.0.113.66", times: 20)
        XCTAssertNotEqual(store.authenticate(username: "ada", password: "guess", clientAddress: "203.0.113.66"), .rejected,
                          "the attacker's own address is held back")
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "198.51.100.7"), .accepted,
                       "the user's own address, with no failures of its own, is not")
    }

    func testAGuessSpreadOverManyAddressesHoldsBackOnlyAddressesThatFailed() throws {
        let store = try makeStore()
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "198.51.100.7"), .accepted)
        for index in 1...12 {
            XCTAssertEqual(store.authenticate(username: "ada", password: "guess", clientAddress: "203.0.113.\(index)"), .rejected)
        }
        guard case .throttled = store.authenticate(username: "ada", password: "guess", clientAddress: "203.0.113.1") else {
            return XCTFail("an attacker address that already failed waits once the account passed its limit")
        }
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "192.0.2.200"), .accepted,
                       "a fresh address goes ahead")
        // The user's known address, even after a typo, goes ahead too.
        XCTAssertEqual(store.authenticate(username: "ada", password: "typo", clientAddress: "198.51.100.7"), .rejected)
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "198.51.100.7"), .accepted)
    }

    func testTenFailuresFromOneAddressDoNotLockOutAUserWhoLoggedInFromThere() throws {
        let store = try makeStore()
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "192.0.2.7"), .accepted)
        for index in 1...10 {
            XCTAssertEqual(store.authenticate(username: "user\(index)", password: "x", clientAddress: "192.0.2.7"), .rejected)
        }
        guard case .throttled = store.authenticate(username: "user11", password: "x", clientAddress: "192.0.2.7") else {
            return XCTFail("a new name from the spraying address waits")
        }
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "192.0.2.7"), .accepted,
                       "ada logged in from this address before")
    }

    func testOneWrongAttemptEveryFifteenMinutesDoesNotKeepTheAccountLocked() throws {
        let store = try makeStore()
        hammer(store, "ada", from: "203.0.113.66", times: 8)
        for _ in 1...6 {
            clock.seconds += 900
            _ = store.authenticate(username: "ada", password: "guess", clientAddress: "203.0.113.66")
        }
        clock.seconds += 900
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "203.0.113.66"), .accepted,
                       "even from the attacker's address the count has faded")
    }

    func testOldCountersArePrunedAndRefusedNamesAreNeverCounted() throws {
        let store = try makeStore()
        let connection = try XCTUnwrap(try SQLiteDatabase(path: path).connect() as? SQLiteConnection)
        for index in 1...5 { _ = store.authenticate(username: "ghost\(index)", password: "x", clientAddress: "10.0.0.\(index)") }
        XCTAssertGreaterThan(try connection.rowCount(of: "login_failures"), 10)
        clock.seconds += CredentialStore.Policies.standard.accountAndAddress.forgetAfter + 61
        _ = store.authenticate(username: "ghost9", password: "x", clientAddress: "10.0.0.9")
        XCTAssertEqual(try connection.rowCount(of: "login_failures"), 3, "only the last attempt's counters are left")
        _ = store.authenticate(username: String(repeating: "x", count: 300), password: "x", clientAddress: "10.0.0.9")
        XCTAssertEqual(try connection.rowCount(of: "login_failures"), 3, "a name over the limit is not counted")
    }
}
