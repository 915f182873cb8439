import XCTest
@testable import Accounts

final class DatabaseURIMaskingTests: XCTestCase {
    private func assertMasked(_ uri: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let masked = DatabaseURIMasking.masked(uri)
        XCTAssertEqual(masked, expected, file: file, line: line)
        XCTAssertFalse(masked.contains("s3cret"), "the secret is gone: \(masked)", file: file, line: line)
    }

    func testTheUserinfoPasswordIsHidden() {
        assertMasked("postgres://u:s3cret@db.example:5432/rx", "postgres://u:***@db.example:5432/rx")
        assertMasked("postgresql://u:s3cret@db/rx?sslmode=require", "postgresql://u:***@db/rx?sslmode=require")
        assertMasked("postgres://u:s3c@ret@db/rx", "postgres://u:***@db/rx")
        assertMasked("postgres://u:s3cret/x@db/rx", "postgres://u:***@db/rx")
    }

    func testPasswordQueryParametersAreHiddenInAnyOrderAndSpelling() {
        assertMasked("postgres://u@host/db?password=s3cret", "postgres://u@host/db?password=***")
        assertMasked("postgresql://host/db?user=u&password=s3cret", "postgresql://host/db?user=u&password=***")
        assertMasked("postgresql://host/db?password=s3cret&user=u&connect_timeout=2",
                     "postgresql://host/db?password=***&user=u&connect_timeout=2")
        assertMasked("postgres://host/db?PASSWORD=s3cret", "postgres://host/db?PASSWORD=***")
        assertMasked("postgres://host/db?pass%77ord=s3cret", "postgres://host/db?pass%77ord=***")
        assertMasked("postgres://host/db?sslpassword=s3cret&password=s3cret2", "postgres://host/db?sslpassword=***&password=***")
        assertMasked("postgres://host?password=s3cret", "postgres://host?password=***")
        assertMasked("postgres://u:s3cret@host/db?password=s3cret", "postgres://u:***@host/db?password=***")
    }

    func testAPasswordHoldingAQuestionMarkOrAnAtInTheQueryIsHidden() {
        // libpq reads "s3c?ret" as the password: the query starts after the userinfo.
        assertMasked("postgres://u:s3c?ret@host/db", "postgres://u:***@host/db")
        assertMasked("postgres://u:s3c?ret@host/db?password=s3cret", "postgres://u:***@host/db?password=***")
        // An `@` in the query: the userinfo cannot be told, so all before it is hidden.
        assertMasked("postgres://host/db?password=s3cret&user=a@b", "postgres://***@b")
    }

    func testTheWrittenSecretsAreThoseMasked() {
        XCTAssertEqual(DatabaseURIMasking.writtenSecrets("postgres://u:s3c?ret@h/db?sslpassword=s%33cret&user=u"),
                       ["s3c?ret", "s%33cret"])
        XCTAssertEqual(DatabaseURIMasking.writtenSecrets("postgres://u@h/db"), [])
    }

    func testLibpqsReasonsLeaveOutWhatTheyQuote() {
        XCTAssertNil(PostgresURIReading.problem("postgres://u:s3c?ret@127.0.0.1:1/db?sslmode=disable"))
        let reason = PostgresURIReading.problem("postgres://u:s3cret%zz@127.0.0.1/db")
        XCTAssertEqual(reason, #"invalid percent-encoded token: "…""#)
        XCTAssertEqual(PostgresURIReading.withoutQuotedTokens("a \"s3cret\" b \"x"), #"a "…" b "…""#)
        XCTAssertEqual(PostgresURIReading.scrubbed(#"bad "s3cret" and "s3c%72et""#,
                                                   uri: "postgres://h/db?password=s3c%72et"),
                       #"bad "***" and "***""#)
    }

    func testLocationsWithoutSecretsAreUnchanged() {
        for location in ["postgres://u@host/db", "postgres://host/db?user=u&passfile=/x", "sqlite:data/rx.sqlite", "postgres://host/db?"] {
            XCTAssertEqual(DatabaseURIMasking.masked(location), location)
        }
    }
}
