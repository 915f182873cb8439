import XCTest
@_spi(Protocol) @testable import Sessions

final class ClientMessageReaderTests: XCTestCase {
    // MARK: helpers

    private func message(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ClientMessage? {
        switch ClientMessageReader.read(text) {
        case .success(let message): return message
        case .failure(let error):
            XCTFail("refused \(text.prefix(80)): \(error.message)", file: file, line: line)
            return nil
        }
    }

    private func assertBadJSON(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        switch ClientMessageReader.read(text) {
        case .success(let message): XCTFail("accepted \(text.prefix(80)) as \(message)", file: file, line: line)
        case .failure(let error): XCTAssertEqual(error.code, .badJSON, "\(text.prefix(80))", file: file, line: line)
        }
    }

    private func value(of json: String, file: StaticString = #filePath, line: UInt = #line) -> ClientMessage.Value? {
        message("{\"input\":\"x\",\"value\":\(json)}", file: file, line: line)?.value
    }

    // MARK: the two shapes

    func testTextMessage() {
        XCTAssertEqual(message(#"{"input":"number1","value":"42"}"#), ClientMessage(input: "number1", value: .string("42")))
    }

    func testTapMessage() {
        XCTAssertEqual(message(#"{"input":"loginTapped"}"#), ClientMessage(input: "loginTapped", value: .absent))
    }

    func testKeysInEitherOrderAndWhitespaceBetweenTokens() {
        XCTAssertEqual(message(" \t\r\n{ \"value\" :\n\"a\" , \"input\" : \"u\" }\n "), ClientMessage(input: "u", value: .string("a")))
    }

    func testEmptyStrings() {
        XCTAssertEqual(message(#"{"input":"","value":""}"#), ClientMessage(input: "", value: .string("")))
    }

    // MARK: roots that are not one object

    func testNonObjectRootsAreBadJSON() {
        for text in ["", " ", "[]", "[{\"input\":\"a\"}]", "\"input\"", "1", "-1", "true", "false", "null", "\u{FEFF}{\"input\":\"a\"}"] {
            assertBadJSON(text)
        }
    }

    func testTrailingGarbageIsBadJSON() {
        for text in [#"{"input":"a"} x"#, #"{"input":"a"}{}"#, #"{"input":"a"},"#, #"{"input":"a"}}"#, "{\"input\":\"a\"}\u{0}"] {
            assertBadJSON(text)
        }
    }

    func testMalformedObjectsAreBadJSON() {
        for text in [
            "{", "}", #"{"input""#, #"{"input"}"#, #"{"input":}"#, #"{"input":"a",}"#, #"{"input":"a""#,
            #"{input:"a"}"#, #"{'input':'a'}"#, #"{"input":"a" "value":"b"}"#, #"{"input":"a",,"value":"b"}"#,
            #"{,"input":"a"}"#, #"{"input"::"a"}"#, #"{"input":"a";"value":"b"}"#,
        ] {
            assertBadJSON(text)
        }
    }

    // MARK: the object's members

    func testMissingOrNonStringInputIsBadJSON() {
        for text in ["{}", #"{"value":"a"}"#, #"{"input":1}"#, #"{"input":null}"#, #"{"input":["a"]}"#, #"{"input":{"a":1}}"#, #"{"input":true}"#] {
            assertBadJSON(text)
        }
    }

    func testUnknownKeysAreBadJSON() {
        assertBadJSON(#"{"input":"a","value":"b","extra":1}"#)
        assertBadJSON(#"{"input":"a","valeu":"b"}"#)
        assertBadJSON(#"{"Input":"a"}"#)
    }

    func testUnknownKeyMessageIsShortForLongKeys() {
        let key = String(repeating: "k", count: 10_000)
        guard case .failure(let error) = ClientMessageReader.read("{\"\(key)\":1,\"input\":\"a\"}") else {
            return XCTFail("accepted an unknown key")
        }
        XCTAssertEqual(error.code, .badJSON)
        XCTAssertLessThan(error.message.utf8.count, 200)
    }

    func testDuplicateKeysAreBadJSON() {
        assertBadJSON(#"{"input":"a","input":"a"}"#)
        assertBadJSON(#"{"input":"a","value":"1","value":"2"}"#)
        assertBadJSON(#"{"input":"a","\u0069nput":"b"}"#)
    }

    func testEscapedKeysAreDecodedBeforeComparison() {
        XCTAssertEqual(message(#"{"\u0069nput":"a","valu\u0065":"b"}"#), ClientMessage(input: "a", value: .string("b")))
    }

    // MARK: values that are not strings are parsed fully and kept as their JSON text

    func testWellFormedNonStringValuesAreKeptAsTheirJSONText() {
        for json in ["null", "true", "false", "0", "-0", "42", "-7", "3.25", "-1.5e-3", "1E+2", "[]", "{}",
                     "[1,\"a\",null,{\"k\":[true]}]", "{\"a\":{\"b\":[]},\"c\":\"\\u00e9\"}", " [ 1 , 2 ] "] {
            XCTAssertEqual(value(of: json), .json(json.trimmingCharacters(in: .whitespaces)), json)
        }
    }

    func testHugeAndNegativeNumbersAreKeptWhole() {
        let huge = String(repeating: "9", count: 50_000)
        for json in [huge, "-" + huge, "1e999999999", "-1e-999999999", "123456789012345678901234567890.123456789"] {
            XCTAssertEqual(value(of: json), .json(json), String(json.prefix(40)))
        }
    }

    func testMalformedNumbersAreBadJSON() {
        for json in ["+1", "01", "-01", "1.", ".5", "-", "1e", "1e+", "1.e5", "0x10", "- 1", "NaN", "Infinity", "-Infinity", "1_000", "١"] {
            assertBadJSON("{\"input\":\"x\",\"value\":\(json)}")
        }
    }

    func testMalformedLiteralsAndContainersAreBadJSON() {
        for json in ["tru", "True", "nul", "nulll", "[1,]", "[,1]", "[1 2]", "{\"a\"}", "{\"a\":1,}", "{1:2}", "[", "{", "]", "[}", "{]", "[\"a\":1]"] {
            assertBadJSON("{\"input\":\"x\",\"value\":\(json)}")
        }
    }

    // MARK: nesting

    func testNestingUpToTheLimitIsAccepted() {
        // The root object is one level, so the value may open maxDepth - 1 containers.
        let depth = ClientMessageReader.maxDepth - 1
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertEqual(value(of: json), .json(json))
        let objects = String(repeating: "{\"a\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        XCTAssertEqual(value(of: objects), .json(objects))
    }

    func testNestingBeyondTheLimitIsBadJSON() {
        let depth = ClientMessageReader.maxDepth
        assertBadJSON("{\"input\":\"x\",\"value\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}")
        assertBadJSON("{\"input\":\"x\",\"value\":" + String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth) + "}")
    }

    func testVeryDeepNestingIsRefusedWithoutRecursion() {
        // 60 000 levels would overflow any recursive reader's stack.
        let depth = 60_000
        assertBadJSON("{\"input\":\"x\",\"value\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}")
        assertBadJSON(String(repeating: "[", count: depth))
        assertBadJSON(String(repeating: "{\"input\":", count: depth))
    }

    // MARK: strings

    func testSignsAndSpacesInStringsAreKeptExactly() {
        for text in [" 5", "5 ", "+5", "-5", "- 5", "1 2", "\t7\n"] {
            var escaped = ""
            escaped.appendJSONString(text)
            XCTAssertEqual(value(of: escaped), .string(text))
        }
    }

    func testVeryLongStringsAreKept() {
        let long = String(repeating: "0123456789abcdef", count: 4000)  // 64 000 bytes
        XCTAssertEqual(value(of: "\"\(long)\""), .string(long))
        let withEscapes = String(repeating: "ab\\n", count: 16_000)
        XCTAssertEqual(value(of: "\"\(withEscapes)\""), .string(String(repeating: "ab\n", count: 16_000)))
    }

    func testEveryShortEscapeDecodes() {
        XCTAssertEqual(value(of: #""\" \\ \/ \b \f \n \r \t""#), .string("\" \\ / \u{08} \u{0C} \n \r \t"))
    }

    func testUnicodeEscapesDecode() {
        XCTAssertEqual(value(of: #""\u0041\u00e9\u00E9\u4e2d\uFFFF""#), .string("A\u{e9}\u{e9}\u{4e2d}\u{ffff}"))
        XCTAssertEqual(value(of: #""\u0000""#), .string("\u{0}"))
    }

    func testSurrogatePairsDecode() {
        XCTAssertEqual(value(of: #""\ud83d\ude00 \uD834\uDD1E""#), .string("\u{1F600} \u{1D11E}"))
        XCTAssertEqual(value(of: #""\udbff\udfff""#), .string("\u{10FFFF}"))
    }

    func testLoneSurrogatesAreBadJSON() {
        for json in [#""\ud83d""#, #""\ud83d x""#, #""\ud83d\u0041""#, #""\ud83d\ud83d""#, #""\ude00""#, #""\ude00\ud83d""#, #""\ud83d\""#, #""\ud83d\n""#] {
            assertBadJSON("{\"input\":\"x\",\"value\":\(json)}")
        }
    }

    func testInvalidEscapesAreBadJSON() {
        for json in [#""\x41""#, #""\'""#, #""\a""#, #""\u12""#, #""\u12G4""#, #""\U0041""#, #""\""#, #""\u""#, #""\0""#] {
            assertBadJSON("{\"input\":\"x\",\"value\":\(json)}")
        }
        assertBadJSON(#"{"input":"a\q"}"#)
    }

    func testRawControlCharactersInStringsAreBadJSON() {
        for byte in [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F] {
            let control = String(UnicodeScalar(UInt8(byte)))
            assertBadJSON("{\"input\":\"x\",\"value\":\"a\(control)b\"}")
            assertBadJSON("{\"input\":\"a\(control)\"}")
        }
    }

    func testUnterminatedStringsAreBadJSON() {
        assertBadJSON(#"{"input":"x","value":"abc"#)
        assertBadJSON(#"{"input":"x","value":"abc\"#)
        assertBadJSON(#"{"input":"x"#)
    }

    func testNonASCIIIsKeptAsIs() {
        XCTAssertEqual(value(of: "\"héllo 中文 😀\""), .string("héllo 中文 😀"))
        XCTAssertEqual(message("{\"input\":\"ünïcode\"}")?.input, "ünïcode")
    }

    func testInvalidUTF8BytesAreRepairedNotTrusted() {
        let bytes: [UInt8] = Array(#"{"input":"a","value":""#.utf8) + [0xFF, 0xC3] + Array("\"}".utf8)
        let result = bytes.withUnsafeBufferPointer { ClientMessageReader.read(utf8: $0) }
        XCTAssertEqual(try result.get().value, .string("\u{FFFD}\u{FFFD}"))
    }

    func testRefusalsNameTheBytePosition() {
        guard case .failure(let error) = ClientMessageReader.read(#"{"input":"a",}"#) else { return XCTFail("accepted") }
        XCTAssertTrue(error.message.contains("byte 13"), error.message)
    }
}
