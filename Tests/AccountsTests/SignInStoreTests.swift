import Foundation
import Synchronization
import XCTest
@testable import Accounts

/// Codes, tokens, their lifetimes and revocations in the SQLite store.
final class SignInStoreTests: XCTestCase {
    private var folder: URL!
    private let clock = TestClock()
    private let policy = SignInPolicy(idleTimeout: 100, lifetime: 1000, codeLifetime: 10, touchInterval: 5)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-sign-in-\(UUID().uuidString)")
        clock.seconds = 1_000_000
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func makeStore() throws -> CredentialStore {
        let clock = clock
        let store = CredentialStore(database: SQLiteDatabase(path: folder.appendingPathComponent("a.sqlite").path),
                                    hasher: try PasswordHasher(parameters: testParameters), clock: { clock.seconds })
        try store.migrate()
        XCTAssertTrue(try store.addAccount("ada", password: "engine"))
        return store
    }

    func testACodeIsRedeemedOnceForATokenThatNamesTheUser() throws {
        let store = try makeStore()
        let code = try store.issueSignInCode(for: "ada", policy: policy)
        XCTAssertTrue(SignInSecret.isWellFormed(code))
        let issued = try XCTUnwrap(try store.redeemSignInCode(code, clientAddress: "10.0.0.1", userAgent: "test", policy: policy))
        XCTAssertEqual(issued.session.username, "ada")
        XCTAssertGreaterThanOrEqual(issued.token.count, 43, "256 bits in base64url")
        XCTAssertNil(try store.redeemSignInCode(code, clientAddress: "10.0.0.1", userAgent: "test", policy: policy), "single use")
        XCTAssertEqual(try store.signedInSession(token: issued.token, policy: policy)?.id, issued.session.id)
        XCTAssertNil(try store.signedInSession(token: issued.token + "x", policy: policy))
    }

    func testSecretsAreHashedWithSHA256AndCheckedForShape() {
        // FIPS 180-2's example: SHA-256("abc").
        XCTAssertEqual(SignInSecret.hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SignInSecret.digest("abc").hex, SignInSecret.hash("abc"))
        XCTAssertNotEqual(SignInSecret.digest("abc"), SignInSecret.digest("abd"))
        XCTAssertTrue(SignInSecret.isWellFormed(SignInSecret.makeToken()))
        XCTAssertTrue(SignInSecret.isWellFormed(SignInSecret.makeCode()))
        for bad in ["short", String(repeating: "a", count: 65), "aaaaaaaaaaaaaaaa=", "aaaaaaaaaaaaaaa+", "aaaaaaaaaaaaaaa/", "aaaaaaaaaaaaaaaé"] {
            XCTAssertFalse(SignInSecret.isWellFormed(bad), bad)
        }
        XCTAssertEqual(SignInSecret.makeSessionID().count, 16)
    }

    func testNeitherTheTokenNorTheCodeIsStored() throws {
        let store = try makeStore()
        let code = try store.issueSignInCode(for: "ada", policy: policy)
        let file = try Data(contentsOf: folder.appendingPathComponent("a.sqlite"))
            + ((try? Data(contentsOf: folder.appendingPathComponent("a.sqlite-wal"))) ?? Data())
        XCTAssertNil(file.range(of: Data(code.utf8)), "only the code's hash is written")
        let issued = try XCTUnwrap(try store.redeemSignInCode(code, clientAddress: "", userAgent: "", policy: policy))
        let after = try Data(contentsOf: folder.appendingPathComponent("a.sqlite"))
            + ((try? Data(contentsOf: folder.appendingPathComponent("a.sqlite-wal"))) ?? Data())
        XCTAssertNil(after.range(of: Data(issued.token.utf8)), "only the token's hash is written")
        XCTAssertNotNil(after.range(of: Data(SignInSecret.hash(issued.token).utf8)))
    }

    func testAnExpiredCodeIsRefusedAndUsedUp() throws {
        let store = try makeStore()
        let code = try store.issueSignInCode(for: "ada", policy: policy)
        clock.seconds += 11
        XCTAssertNil(try store.redeemSignInCode(code, clientAddress: "", userAgent: "", policy: policy))
    }

    func testEveryLoginMakesANewToken() throws {
        let store = try makeStore()
        let first = try XCTUnwrap(try store.redeemSignInCode(try store.issueSignInCode(for: "ada", policy: policy),
                                                             clientAddress: "", userAgent: "", policy: policy))
        clock.seconds += 1
        let second = try XCTUnwrap(try store.redeemSignInCode(try store.issueSignInCode(for: "ada", policy: policy),
                                                              clientAddress: "", userAgent: "", policy: policy))
        XCTAssertNotEqual(first.token, second.token)
        XCTAssertNotEqual(first.session.id, second.session.id)
        XCTAssertEqual(try store.signedInSessions(of: "ada", policy: policy).map(\.id), [first.session.id, second.session.id])
    }

    func testIdleTimeoutAndLifetime() throws {
        let store = try makeStore()
        let issued = try XCTUnwrap(try store.issueToken(for: "ada", lifetime: policy.lifetime, userAgent: "script"))
        clock.seconds += 99
        XCTAssertNotNil(try store.signedInSession(token: issued.token, policy: policy), "used within the idle timeout")
        clock.seconds += 99
        XCTAssertNotNil(try store.signedInSession(token: issued.token, policy: policy), "each use moves the idle timeout")
        clock.seconds += 101
        XCTAssertNil(try store.signedInSession(token: issued.token, policy: policy), "idle too long")

        let kept = try XCTUnwrap(try store.issueToken(for: "ada", lifetime: policy.lifetime, userAgent: "script"))
        for _ in 0..<10 {
            clock.seconds += 90
            XCTAssertNotNil(try store.signedInSession(token: kept.token, policy: policy))
        }
        clock.seconds += 101
        XCTAssertNil(try store.signedInSession(token: kept.token, policy: policy), "past its lifetime, however often used")
    }

    func testRevocationsEndSessionsAndAreLogged() throws {
        let store = try makeStore()
        XCTAssertTrue(try store.addAccount("grace", password: "hopper"))
        let start = try store.latestRevocation()
        let one = try XCTUnwrap(try store.issueToken(for: "ada", lifetime: 1000, userAgent: "a"))
        let two = try XCTUnwrap(try store.issueToken(for: "ada", lifetime: 1000, userAgent: "b"))
        let other = try XCTUnwrap(try store.issueToken(for: "grace", lifetime: 1000, userAgent: "c"))

        XCTAssertEqual(try store.revokeSession(token: one.token)?.id, one.session.id)
        XCTAssertNil(try store.signedInSession(token: one.token, policy: policy))
        XCTAssertNotNil(try store.signedInSession(token: two.token, policy: policy))
        XCTAssertFalse(try store.revokeSession(id: other.session.id, of: "ada"), "only the user's own sessions")

        XCTAssertEqual(try store.revokeAllSessions(of: "ada"), 1)
        XCTAssertNil(try store.signedInSession(token: two.token, policy: policy))
        XCTAssertNotNil(try store.signedInSession(token: other.token, policy: policy))

        XCTAssertTrue(try store.changePassword(of: "grace", to: "new"))
        XCTAssertNil(try store.signedInSession(token: other.token, policy: policy), "a new password ends every session")

        let (_, revocations) = try store.revocations(after: start)
        XCTAssertEqual(revocations, [.session(id: one.session.id), .user("ada"), .user("grace")])
    }

    func testRemovingAUserEndsItsSessionsAndCodes() throws {
        let store = try makeStore()
        let token = try XCTUnwrap(try store.issueToken(for: "ada", lifetime: 1000, userAgent: "a"))
        let code = try store.issueSignInCode(for: "ada", policy: policy)
        XCTAssertTrue(try store.removeAccount("ada"))
        XCTAssertNil(try store.signedInSession(token: token.token, policy: policy))
        XCTAssertNil(try store.redeemSignInCode(code, clientAddress: "", userAgent: "", policy: policy))
        XCTAssertTrue(try store.addAccount("ada", password: "again"))
        XCTAssertNil(try store.signedInSession(token: token.token, policy: policy), "a new account of the same name is not signed in")
    }

    func testTheWatcherHearsRevocationsFromAnotherStoreOnTheSameFile() throws {
        let store = try makeStore()
        let other = CredentialStore(database: SQLiteDatabase(path: folder.appendingPathComponent("a.sqlite").path),
                                    hasher: try PasswordHasher(parameters: testParameters))
        let heard = Mutex<[Revocation]>([])
        let arrived = expectation(description: "revocation heard")
        let watcher = RevocationWatcher(store: store, interval: 0.05) { revocations in
            heard.withLock { $0 += revocations }
            arrived.fulfill()
        }
        watcher.start()
        defer { watcher.stop() }
        Thread.sleep(forTimeInterval: 0.2)  // the watcher starts from the newest entry
        XCTAssertEqual(try other.revokeAllSessions(of: "ada"), 0)
        wait(for: [arrived], timeout: 5)
        XCTAssertEqual(heard.withLock { $0 }, [.user("ada")])
    }
}
