import XCTest
@_spi(Protocol) @testable import Sessions

final class InputTableTests: XCTestCase {
    private let table = InputTable([(name: "username", kind: .text), (name: "password", kind: .text), (name: "loginTapped", kind: .tap)])

    private func code(_ text: String) -> ProtocolErrorCode? {
        if case .failure(let error) = table.decode(text) { return error.code }
        return nil
    }

    func testTextInputWithStringValue() {
        XCTAssertEqual(try table.decode(#"{"input":"password","value":"s3cret"}"#).get(), .init(index: 1, payload: .text("s3cret")))
    }

    func testTapWithoutValue() {
        XCTAssertEqual(try table.decode(#"{"input":"loginTapped"}"#).get(), .init(index: 2, payload: .tap))
    }

    func testUnknownInput() {
        XCTAssertEqual(code(#"{"input":"number1","value":"1"}"#), .unknownInput)
        XCTAssertEqual(code(#"{"input":"Username","value":"1"}"#), .unknownInput)
        XCTAssertEqual(code(#"{"input":""}"#), .unknownInput)
    }

    func testUnknownInputWinsOverABadValue() {
        XCTAssertEqual(code(#"{"input":"nope","value":5}"#), .unknownInput)
    }

    func testTextInputWithoutAStringValueIsBadValue() {
        for value in ["", #","value":null"#, #","value":5"#, #","value":-1e300"#, #","value":true"#, #","value":["a"]"#, #","value":{"a":"b"}"#] {
            XCTAssertEqual(code("{\"input\":\"username\"\(value)}"), .badValue, value)
        }
    }

    func testTapWithAnyValueIsBadValue() {
        for value in [#""""#, #""x""#, "null", "0", "false", "[]", "{}"] {
            XCTAssertEqual(code("{\"input\":\"loginTapped\",\"value\":\(value)}"), .badValue, value)
        }
    }

    func testMalformedJSONIsBadJSONBeforeAnyLookup() {
        XCTAssertEqual(code(#"{"input":"nope","value":[}"#), .badJSON)
        XCTAssertEqual(code(#"{"input":"loginTapped","value":01}"#), .badJSON)
    }

    func testUnknownInputMessageListsTheInputsAndTruncatesTheName() {
        let name = String(repeating: "n", count: 5000)
        guard case .failure(let error) = table.decode("{\"input\":\"\(name)\"}") else { return XCTFail("accepted") }
        XCTAssertTrue(error.message.hasSuffix("the inputs are username, password, loginTapped"), error.message)
        XCTAssertLessThan(error.message.utf8.count, 200)
    }
}
