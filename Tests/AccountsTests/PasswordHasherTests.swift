import XCTest
@testable import Accounts

/// Small parameters keep the suite fast; the code paths are the same as the defaults'.
let testParameters = Argon2Parameters(memoryKiB: 4096, iterations: 1, parallelism: 1)

final class PasswordHasherTests: XCTestCase {
    func testHashIsAnArgon2idPHCStringCarryingItsParameters() throws {
        let hasher = try PasswordHasher(parameters: testParameters)
        let hash = try hasher.hash("correct horse")
        XCTAssertTrue(hash.hasPrefix("$argon2id$v=19$m=4096,t=1,p=1$"), hash)
        XCTAssertEqual(PasswordHasher.parameters(of: hash), testParameters)
        XCTAssertEqual(hash.split(separator: "$").count, 5, "algorithm, version, parameters, salt, hash")
    }

    func testEachHashHasItsOwnSalt() throws {
        let hasher = try PasswordHasher(parameters: testParameters)
        let first = try hasher.hash("same password")
        let second = try hasher.hash("same password")
        XCTAssertNotEqual(first, second)
        XCTAssertNotEqual(first.split(separator: "$")[3], second.split(separator: "$")[3], "the salts differ")
        XCTAssertTrue(hasher.verify("same password", against: first))
        XCTAssertTrue(hasher.verify("same password", against: second))
    }

    func testVerifyAcceptsOnlyThePassword() throws {
        let hasher = try PasswordHasher(parameters: testParameters)
        let hash = try hasher.hash("pässwörd")
        XCTAssertTrue(hasher.verify("pässwörd", against: hash))
        XCTAssertFalse(hasher.verify("passwörd", against: hash))
        XCTAssertFalse(hasher.verify("", against: hash))
        XCTAssertFalse(hasher.verify("pässwörd ", against: hash))
    }

    func testAStringThatIsNoArgon2idHashNeverMatches() throws {
        let hasher = try PasswordHasher(parameters: testParameters)
        let argon2i = try hasher.hash("x").replacingOccurrences(of: "$argon2id$", with: "$argon2i$")
        for stored in ["", "x", "plain text password", "$argon2id$v=19$m=4096,t=1,p=1$", argon2i] {
            XCTAssertFalse(hasher.verify("x", against: stored), stored)
        }
        XCTAssertFalse(hasher.verify("plain text password", against: "plain text password"))
    }

    func testOldParametersStillVerifyAndAskForARehash() throws {
        let old = try PasswordHasher(parameters: testParameters)
        let raised = try PasswordHasher(parameters: Argon2Parameters(memoryKiB: 8192, iterations: 2, parallelism: 1))
        let hash = try old.hash("pw")
        XCTAssertTrue(raised.verify("pw", against: hash), "the stored parameters are used to verify")
        XCTAssertTrue(raised.needsRehash(hash))
        XCTAssertFalse(old.needsRehash(hash))
        XCTAssertFalse(raised.needsRehash(try raised.hash("pw")))
    }

    func testParameterFieldParsing() {
        XCTAssertEqual(Argon2Parameters(phcField: "m=65536,t=3,p=4"), Argon2Parameters(memoryKiB: 65536, iterations: 3, parallelism: 4))
        XCTAssertEqual(Argon2Parameters(phcField: "t=3,p=4,m=65536"), Argon2Parameters(memoryKiB: 65536, iterations: 3, parallelism: 4))
        XCTAssertNil(Argon2Parameters(phcField: "m=65536,t=3"))
        XCTAssertNil(Argon2Parameters(phcField: "m=lots,t=3,p=1"))
        XCTAssertNil(Argon2Parameters(phcField: "m=1,t=3,p=1,x=2"))
        XCTAssertEqual(Argon2Parameters.recommended.description, "m=19456,t=2,p=1")
    }

    func testTheUnknownAccountPathHashesWithTheSameParameters() throws {
        let hasher = try PasswordHasher(parameters: testParameters)
        XCTAssertEqual(hasher.dummyHashParameters, testParameters)
        XCTAssertFalse(hasher.verifyUnknownAccount("anything"))
    }
}
