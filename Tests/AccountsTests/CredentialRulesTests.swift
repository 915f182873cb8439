import Foundation
import XCTest
@testable import Accounts

/// What a username and a password may be, and that the store holds to it.
final class CredentialRulesTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-rules-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var path: String { folder.appendingPathComponent("accounts.sqlite").path }

    private func makeStore() throws -> CredentialStore {
        let store = CredentialStore(database: SQLiteDatabase(path: path), hasher: try PasswordHasher(parameters: testParameters))
        try store.migrate()
        return store
    }

    private func refusal(_ name: String) -> String? {
        do {
            _ = try CredentialRules.normalizedUsername(name)
            return nil
        } catch {
            return error.description
        }
    }

    func testControlAndInvisibleCharactersAreRefusedWithTheirCodePoint() {
        let cases: [(String, String)] = [
            ("ada\u{0}zzz", "U+0000"), ("ada\u{7}", "U+0007"), ("a\u{7F}", "U+007F"), ("a\u{85}b", "U+0085"),
            ("a\u{200B}da", "U+200B"), ("\u{202E}ada", "U+202E"), ("\u{FEFF}ada", "U+FEFF"), ("a\u{2028}b", "U+2028"),
            ("ada\u{FFFD}", "U+FFFD"),
        ]
        for (name, code) in cases {
            let message = refusal(name)
            XCTAssertEqual(message, "a username may not contain control or invisible characters (\(code))", name.debugDescription)
        }
        XCTAssertNil(refusal("Ada Lovelace"), "spaces and letters are fine")
        XCTAssertNil(refusal("ådå.ü-ß_1"))
    }

    func testDefaultIgnorableFillerAndBlankCharactersAreRefused() {
        // Each makes a name that renders as "ada".
        for scalar: UInt32 in [0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0xFE0F, 0xE0100, 0xE0041, 0x180E, 0xE000, 0xFDD0, 0x0378] {
            let name = "ada" + String(Character(Unicode.Scalar(scalar)!))
            let hex = String(scalar, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            XCTAssertEqual(refusal(name), "a username may not contain control or invisible characters (\(code))", code)
        }
    }

    func testWhiteSpaceIsOneSpaceBetweenOtherCharacters() {
        XCTAssertEqual(refusal("ada "), "a username may not begin or end with a space")
        XCTAssertEqual(refusal(" ada"), "a username may not begin or end with a space")
        XCTAssertEqual(refusal("ada  lovelace"), "a username may not hold two spaces in a row")
        XCTAssertEqual(refusal("ada\u{A0}"), "a username's only white space is the plain space, U+0020 (not U+00A0)")
        XCTAssertEqual(refusal("ada\u{3000}"), "a username's only white space is the plain space, U+0020 (not U+3000)")
        XCTAssertEqual(refusal("ada\u{2003}x"), "a username's only white space is the plain space, U+0020 (not U+2003)")
        XCTAssertEqual(refusal("ada\tx"), "a username may not contain control or invisible characters (U+0009)")
        XCTAssertNil(refusal("Ada King Lovelace"))
    }

    func testNamesStoredBeforeTheRuleAreListedApartAndFoundBack() {
        XCTAssertEqual(CredentialRules.listedName("Ada Lovelace"), "Ada Lovelace")
        XCTAssertNil(CredentialRules.storedName(listed: "Ada Lovelace"))
        for (stored, listed) in [("ada\u{3164}", "ada\\u{3164}"), ("ada ", "ada\\u{20}"), ("a\\b\u{A0}", "a\\u{5C}b\\u{A0}"),
                                 ("ada\u{E0100}", "ada\\u{E0100}")] {
            XCTAssertEqual(CredentialRules.listedName(stored), listed)
            XCTAssertEqual(CredentialRules.storedName(listed: listed), stored)
        }
    }

    func testNamesAreComparedInNFC() throws {
        let decomposed = "e\u{301}mile", precomposed = "\u{E9}mile"
        XCTAssertNotEqual(Array(decomposed.utf8), Array(precomposed.utf8))
        XCTAssertEqual(Array(try CredentialRules.normalizedUsername(decomposed).utf8), Array(precomposed.utf8))
        let store = try makeStore()
        XCTAssertTrue(try store.addAccount(decomposed, password: "pw"))
        XCTAssertEqual(try store.accountNames().map { Array($0.utf8) }, [Array(precomposed.utf8)], "stored in NFC")
        XCTAssertEqual(store.authenticate(username: precomposed, password: "pw", clientAddress: "a"), .accepted)
        XCTAssertFalse(try store.addAccount(precomposed, password: "pw"), "the same name, however it is typed")
    }

    func testLengthLimits() {
        XCTAssertNil(refusal(String(repeating: "a", count: AccountLimits.maxUsernameScalars)))
        XCTAssertNotNil(refusal(String(repeating: "a", count: AccountLimits.maxUsernameScalars + 1)))
        XCTAssertNotNil(refusal(String(repeating: "€", count: 86)), "258 bytes")
        XCTAssertNotNil(refusal(String(repeating: "x", count: 60_000)))
        XCTAssertEqual(refusal(""), "a username may not be empty")
        XCTAssertNoThrow(try CredentialRules.validatePassword(String(repeating: "p", count: AccountLimits.maxPasswordBytes)))
        XCTAssertThrowsError(try CredentialRules.validatePassword(String(repeating: "p", count: AccountLimits.maxPasswordBytes + 1)))
        XCTAssertThrowsError(try CredentialRules.validatePassword(""))
    }

    func testInvalidUTF8IsRefusedNeverReplaced() {
        XCTAssertThrowsError(try CredentialRules.normalizedUsername(utf8: [0x61, 0xFF, 0x62])) { error in
            XCTAssertEqual((error as? CredentialValidationError)?.description, "a username must be valid UTF-8")
        }
        XCTAssertThrowsError(try CredentialRules.password(utf8: [0x70, 0xC3]))
        XCTAssertEqual(try CredentialRules.password(utf8: Array("pässword".utf8)), "pässword")
    }

    func testTheStoreRefusesWhatTheRulesRefuse() throws {
        let store = try makeStore()
        XCTAssertThrowsError(try store.addAccount("a\u{200B}da", password: "pw"))
        XCTAssertThrowsError(try store.addAccount("ada", password: String(repeating: "p", count: 1025)))
        XCTAssertEqual(try store.accountNames(), [])
    }

    func testANameCutAtANULNeverLogsInAsThePrefix() throws {
        let store = try makeStore()
        _ = try store.addAccount("ada", password: "engine")
        for name in ["ada\u{0}zzz", "ada\u{0}' OR 1=1"] {
            guard case .refused = store.authenticate(username: name, password: "engine", clientAddress: "a") else {
                return XCTFail("\(name.debugDescription) was not refused")
            }
        }
    }

    func testSQLiteBindsNamesWithTheirByteLength() throws {
        let connection = try XCTUnwrap(try SQLiteDatabase(path: path).connect() as? SQLiteConnection)
        try connection.migrate()
        XCTAssertTrue(try connection.insertAccount("a\u{0}b", passwordHash: "h", now: 0))
        XCTAssertNil(try connection.passwordHash(of: "a"), "the name is not cut at its NUL")
        XCTAssertEqual(try connection.passwordHash(of: "a\u{0}b"), "h")
        XCTAssertEqual(try connection.accountNames(), ["a\u{0}b"], "and is read back whole")
        XCTAssertTrue(try connection.insertAccount("", passwordHash: "empty", now: 0), "an empty text is text, not NULL")
    }

    func testPostgresRefusesAParameterWithANUL() {
        XCTAssertThrowsError(try PostgresConnection.checkParameters(["ok", "ada\u{0}zzz"]))
        XCTAssertNoThrow(try PostgresConnection.checkParameters(["ada", "ümlaut"]))
    }

    func testARefusedNameCostsNoHashAndWritesNothing() throws {
        let store = try makeStore()
        let connection = try XCTUnwrap(try SQLiteDatabase(path: path).connect() as? SQLiteConnection)
        for _ in 1...5 {
            guard case .refused = store.authenticate(username: String(repeating: "n", count: 60_000), password: "x", clientAddress: "a") else {
                return XCTFail("a 60,000-character name was not refused")
            }
        }
        XCTAssertEqual(try connection.rowCount(of: "login_failures"), 0, "nothing was counted")
    }
}
