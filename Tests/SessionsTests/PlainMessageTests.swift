import XCTest
@testable import Sessions

/// The plain-message shortcut of `InputTable`: it answers the two plain shapes itself and
/// leaves everything else to the full reader, whose answer it never changes.
final class PlainMessageTests: XCTestCase {
    private let table = InputTable([
        (name: "username", kind: .text), (name: "loginTapped", kind: .tap), (name: "count", kind: .value),
        (name: "", kind: .text), (name: "caf\u{E9}", kind: .text),
    ])

    private func plain(_ text: String) -> InputTable.Event? {
        var text = text
        return text.withUTF8 { table.plainEvent($0) }
    }

    private func full(_ text: String) -> Result<InputTable.Event, ProtocolError> {
        ClientMessageReader.read(text).flatMap(table.resolve)
    }

    private func decoded(_ text: String) -> Result<InputTable.Event, ProtocolError> {
        var text = text
        return text.withUTF8 { table.decode(utf8: $0) }
    }

    func testPlainShapesTakeTheShortcut() {
        XCTAssertEqual(plain(#"{"input":"username","value":"ann"}"#), .init(index: 0, payload: .text("ann")))
        XCTAssertEqual(plain(#"{"input":"username","value":""}"#), .init(index: 0, payload: .text("")))
        XCTAssertEqual(plain(#"{"input":"username","value":"h\#u{E9}llo \#u{1F600}"}"#), .init(index: 0, payload: .text("h\u{E9}llo \u{1F600}")))
        XCTAssertEqual(plain(#"{"input":"loginTapped"}"#), .init(index: 1, payload: .tap))
        XCTAssertEqual(plain(#"{"input":"","value":"1"}"#), .init(index: 3, payload: .text("1")))
        XCTAssertEqual(plain(#"{"input":"caf\#u{E9}","value":"1"}"#), .init(index: 4, payload: .text("1")))
    }

    func testEverythingElseIsLeftToTheFullReader() {
        let others = [
            #"{ "input":"username","value":"ann"}"#,               // whitespace
            #"{"input":"username","value":"ann"} "#,
            #"{"value":"ann","input":"username"}"#,                // key order
            #"{"input":"user\u006eame","value":"ann"}"#,           // escapes
            #"{"input":"username","value":"a\"nn"}"#,
            "{\"input\":\"username\",\"value\":\"a\tb\"}",          // control character
            #"{"input":"nobody","value":"ann"}"#,                  // not declared
            #"{"input":"cafe\#u{301}","value":"1"}"#,              // equal only after normalization
            #"{"input":"username"}"#,                              // wrong kind for the shape
            #"{"input":"loginTapped","value":"x"}"#,
            #"{"input":"count","value":"5"}"#,
            #"{"input":"count"}"#,
            #"{"input":"username","value":5}"#,                    // not a string
            #"{"input":"username","value":"ann"}}"#,               // trailing bytes
            #"{"input":"username","value":"ann""#,                 // cut short
            #"{"input":"username""#,
            #"{"input":"loginTapped"}x"#,
            #"{"input":"username","value":"ann","value":"bob"}"#,  // duplicate key
            #"{"input":"#,
            "",
        ]
        for text in others {
            XCTAssertNil(plain(text), text)
        }
    }

    func testDecodeAgreesWithTheFullReaderEverywhere() {
        let texts = [
            #"{"input":"username","value":"ann"}"#, #"{"input":"loginTapped"}"#, #"{"input":"","value":""}"#,
            #"{"input":"caf\#u{E9}","value":"1"}"#, #"{"input":"cafe\#u{301}","value":"1"}"#,
            #"{ "input":"username","value":"ann"}"#, #"{"value":"ann","input":"username"}"#,
            #"{"input":"user\u006eame","value":"ann"}"#, #"{"input":"nobody","value":"ann"}"#,
            #"{"input":"username"}"#, #"{"input":"loginTapped","value":"x"}"#, #"{"input":"count","value":"5"}"#,
            #"{"input":"count","value":5}"#, #"{"input":"count"}"#, #"{"input":"username","value":"ann"}}"#,
            #"{"input":"username","value":"ann","value":"bob"}"#, #"{"input":"loginTapped"}x"#, "",
        ]
        for text in texts {
            XCTAssertEqual(decoded(text), full(text), text)
        }
    }

    func testInvalidUTF8IsRepairedAlikeOnBothPaths() {
        let bytes: [UInt8] = Array(#"{"input":"username","value":""#.utf8) + [0xFF, 0x41] + Array(#""}"#.utf8)
        let viaShortcut = bytes.withUnsafeBufferPointer { table.decode(utf8: $0) }
        let viaReader = bytes.withUnsafeBufferPointer { ClientMessageReader.read(utf8: $0).flatMap(table.resolve) }
        XCTAssertEqual(viaShortcut, viaReader)
        XCTAssertEqual(viaShortcut, .success(.init(index: 0, payload: .text("\u{FFFD}A"))))
    }

    func testNamesAreMatchedByTheirWholeBytes() {
        var prefix = Array("user".utf8)
        XCTAssertNil(prefix.withUnsafeMutableBufferPointer { table.index(ofUTF8: UnsafeBufferPointer($0)) })
        var longer = Array("usernames".utf8)
        XCTAssertNil(longer.withUnsafeMutableBufferPointer { table.index(ofUTF8: UnsafeBufferPointer($0)) })
        var exact = Array("loginTapped".utf8)
        XCTAssertEqual(exact.withUnsafeMutableBufferPointer { table.index(ofUTF8: UnsafeBufferPointer($0)) }, 1)
        var empty: [UInt8] = []
        XCTAssertEqual(empty.withUnsafeMutableBufferPointer { table.index(ofUTF8: UnsafeBufferPointer($0)) }, 3)
    }
}
