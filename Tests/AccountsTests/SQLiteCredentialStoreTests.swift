import Foundation
import XCTest
import Accounts

/// Unix seconds that a test moves by hand.
final class TestClock: @unchecked Sendable {  // written by the test's thread only while no store call runs
    var seconds: Double = 1_800_000_000
}

/// The credential store on a real SQLite file in a temporary folder.
final class SQLiteCredentialStoreTests: XCTestCase {
    private var folder: URL!
    private let clock = TestClock()

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-accounts-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var path: String { folder.appendingPathComponent("data/accounts.sqlite").path }

    private func makeStore(parameters: Argon2Parameters = testParameters) throws -> CredentialStore {
        let clock = clock
        let store = CredentialStore(database: SQLiteDatabase(path: path), hasher: try PasswordHasher(parameters: parameters),
                                    clock: { clock.seconds })
        try store.migrate()
        return store
    }

    func testTheFileAndItsFolderAreCreatedForTheOwnerOnly() throws {
        _ = try makeStore()
        let file = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((file[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("data").path)
        XCTAssertEqual((directory[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func testAccountsAreAddedListedAndRemoved() throws {
        let store = try makeStore()
        XCTAssertEqual(try store.accountNames(), [])
        XCTAssertTrue(try store.addAccount("grace", password: "cobol"))
        XCTAssertTrue(try store.addAccount("ada", password: "engine"))
        XCTAssertFalse(try store.addAccount("ada", password: "other"), "a taken name is refused")
        XCTAssertEqual(try store.accountNames(), ["ada", "grace"])
        XCTAssertTrue(try store.removeAccount("ada"))
        XCTAssertFalse(try store.removeAccount("ada"))
        XCTAssertEqual(try store.accountNames(), ["grace"])
    }

    func testThePasswordIsStoredOnlyAsItsHash() throws {
        let store = try makeStore()
        _ = try store.addAccount("ada", password: "engine")
        let stored = try XCTUnwrap(try store.passwordHash(of: "ada"))
        XCTAssertTrue(stored.hasPrefix("$argon2id$"))
        XCTAssertFalse(try Data(contentsOf: URL(fileURLWithPath: path)).contains(Data("engine".utf8)))
    }

    func testAuthenticateAcceptsTheRightPasswordOnly() throws {
        let store = try makeStore()
        _ = try store.addAccount("ada", password: "engine")
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "10.0.0.1"), .accepted)
        XCTAssertEqual(store.authenticate(username: "ada", password: "Engine", clientAddress: "10.0.0.1"), .rejected)
        XCTAssertEqual(store.authenticate(username: "nobody", password: "engine", clientAddress: "10.0.0.1"), .rejected)
    }

    func testTheSchemaMigrationRunsOnceAndKeepsTheAccounts() throws {
        let store = try makeStore()
        _ = try store.addAccount("ada", password: "engine")
        let again = try makeStore()
        try again.migrate()
        XCTAssertEqual(try again.accountNames(), ["ada"])
    }

    func testASuccessfulLoginRehashesAHashWithOlderParameters() throws {
        let old = try makeStore(parameters: testParameters)
        _ = try old.addAccount("ada", password: "engine")
        let raisedParameters = Argon2Parameters(memoryKiB: 8192, iterations: 2, parallelism: 1)
        let raised = try makeStore(parameters: raisedParameters)

        XCTAssertEqual(raised.authenticate(username: "ada", password: "wrong", clientAddress: "a"), .rejected)
        XCTAssertEqual(PasswordHasher.parameters(of: try XCTUnwrap(try raised.passwordHash(of: "ada"))), testParameters,
                       "a failed login changes nothing")
        XCTAssertEqual(raised.authenticate(username: "ada", password: "engine", clientAddress: "a"), .accepted)
        let rehashed = try XCTUnwrap(try raised.passwordHash(of: "ada"))
        XCTAssertEqual(PasswordHasher.parameters(of: rehashed), raisedParameters)
        XCTAssertEqual(raised.authenticate(username: "ada", password: "engine", clientAddress: "a"), .accepted)
        XCTAssertEqual(try raised.passwordHash(of: "ada"), rehashed, "a current hash is left alone")
    }

    func testFailuresPerAccountAndAddressThrottleWithAGrowingWait() throws {
        let store = try makeStore()
        _ = try store.addAccount("ada", password: "engine")
        for _ in 1...3 {
            XCTAssertEqual(store.authenticate(username: "ada", password: "x", clientAddress: "10.0.0.9"), .rejected)
        }
        // The fourth attempt from there waits 2 s after the third failure, even with the right password.
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "10.0.0.9"), .throttled(retryAfter: 2))
        clock.seconds += 1.5
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "10.0.0.9"), .throttled(retryAfter: 0.5))
        clock.seconds += 0.5
        XCTAssertEqual(store.authenticate(username: "ada", password: "x", clientAddress: "10.0.0.9"), .rejected)
        XCTAssertEqual(store.authenticate(username: "ada", password: "x", clientAddress: "10.0.0.9"), .throttled(retryAfter: 4),
                       "the wait doubles")
        clock.seconds += 4
        XCTAssertEqual(store.authenticate(username: "ada", password: "engine", clientAddress: "10.0.0.9"), .accepted)
        // The success cleared the counters: three free failures again.
        for _ in 1...3 {
            XCTAssertEqual(store.authenticate(username: "ada", password: "x", clientAddress: "10.0.0.9"), .rejected)
        }
        XCTAssertEqual(store.authenticate(username: "ada", password: "x", clientAddress: "10.0.0.9"), .throttled(retryAfter: 2))
    }

    func testFailuresPerAddressThrottleAcrossUsernames() throws {
        let store = try makeStore()
        for index in 1...10 {
            XCTAssertEqual(store.authenticate(username: "user\(index)", password: "x", clientAddress: "192.0.2.7"), .rejected)
        }
        XCTAssertEqual(store.authenticate(username: "user11", password: "x", clientAddress: "192.0.2.7"), .throttled(retryAfter: 2))
        XCTAssertEqual(store.authenticate(username: "user11", password: "x", clientAddress: "192.0.2.8"), .rejected,
                       "another address is not throttled")
    }

    func testFailuresAreForgottenAfterTheWindow() throws {
        let store = try makeStore()
        for _ in 1...6 { _ = store.authenticate(username: "ada", password: "x", clientAddress: "a") }
        XCTAssertNotEqual(store.authenticate(username: "ada", password: "x", clientAddress: "a"), .rejected)
        clock.seconds += LoginThrottlePolicy.perAccountAndAddress.forgetAfter
        XCTAssertEqual(store.authenticate(username: "ada", password: "x", clientAddress: "a"), .rejected)
    }

    func testTwoStoresOnOneDatabaseShareTheCounters() throws {
        let first = try makeStore()
        let second = try makeStore()
        _ = try first.addAccount("ada", password: "engine")
        XCTAssertEqual(second.authenticate(username: "ada", password: "engine", clientAddress: "a"), .accepted,
                       "an account added through one is seen by the other")
        for store in [first, second, first] {
            XCTAssertEqual(store.authenticate(username: "ada", password: "x", clientAddress: "a"), .rejected)
        }
        XCTAssertEqual(second.authenticate(username: "ada", password: "x", clientAddress: "a"), .throttled(retryAfter: 2))
    }

    func testParallelAttemptsCannotSlipPastTheLimit() throws {
        let stores = try (0..<4).map { _ in try makeStore() }
        let verdicts = Verdicts()
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            verdicts.append(stores[index % stores.count].authenticate(username: "ada", password: "x", clientAddress: "a"))
        }
        let all = verdicts.all
        XCTAssertEqual(all.count, 12)
        XCTAssertEqual(all.filter { $0 == .rejected }.count, 3, "only the free failures got a hash: \(all)")
    }

    func testManyPeopleBehindOneAddressMayLogInAtOnce() throws {
        let store = try makeStore()
        for index in 0..<12 { _ = try store.addAccount("user\(index)", password: "pw\(index)") }
        let verdicts = Verdicts()
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            verdicts.append(store.authenticate(username: "user\(index)", password: "pw\(index)", clientAddress: "203.0.113.1"))
        }
        XCTAssertEqual(verdicts.all, Array(repeating: .accepted, count: 12),
                       "an address is charged for wrong passwords only, not for logins in flight")
    }

    func testAnUnknownUserTakesAsLongAsAWrongPassword() throws {
        let store = try makeStore(parameters: Argon2Parameters(memoryKiB: 16384, iterations: 2, parallelism: 1))
        _ = try store.addAccount("ada", password: "engine")
        var known: [Double] = [], unknown: [Double] = []
        // Interleaved, so a busy machine slows both alike; the clock moves past every
        // throttle window between rounds, so each attempt is hashed.
        for round in 0..<5 {
            clock.seconds += 100_000
            known.append(seconds { _ = store.authenticate(username: "ada", password: "wrong\(round)", clientAddress: "k\(round)") })
            unknown.append(seconds { _ = store.authenticate(username: "ghost\(round)", password: "wrong", clientAddress: "u\(round)") })
        }
        let ratio = median(unknown) / median(known)
        XCTAssertGreaterThan(ratio, 0.5, "unknown \(unknown) vs wrong password \(known)")
        XCTAssertLessThan(ratio, 2.0, "unknown \(unknown) vs wrong password \(known)")
    }

    private func seconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}

/// Verdicts collected from several threads.
final class Verdicts: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var verdicts: [LoginVerdict] = []

    func append(_ verdict: LoginVerdict) {
        lock.lock()
        verdicts.append(verdict)
        lock.unlock()
    }

    var all: [LoginVerdict] {
        lock.lock()
        defer { lock.unlock() }
        return verdicts
    }
}
