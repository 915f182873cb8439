import XCTest
@_spi(Protocol) @testable import Sessions

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

    func testTheNonPlainPathReadsWhatTheShortcutLeaves() {
        // A session sends a message the shortcut did not take straight to `nonPlainEvent`.
        let texts = [
            #"{ "input":"username","value":"ann"}"#, #"{"value":"ann","input":"username"}"#,
            #"{"input":"user\u006eame","value":"a\"nn"}"#, #"{"input":"loginTapped" }"#,
            #"{"input":"count","value":5}"#, #"{"input":"nobody","value":"ann"}"#, #"{"input":"username"}"#, "",
        ]
        for text in texts {
            var bytes = text
            let event = bytes.withUTF8 { bytes in Result { () throws(ProtocolError) -> InputTable.Event in try table.nonPlainEvent(utf8: bytes) } }
            XCTAssertEqual(event, full(text), text)
        }
        XCTAssertEqual(try? full(#"{"input":"user\u006eame","value":"a\"nn"}"#).get(), .init(index: 0, payload: .text("a\"nn")))
    }

    func testInvalidUTF8IsRepairedAlikeOnBothPaths() {
        let bytes: [UInt8] = Array(#"{"input":"username","value":""#.utf8) + [0xFF, 0x41] + Array(#""}"#.utf8)
        let viaShortcut = bytes.withUnsafeBufferPointer { table.decode(utf8: $0) }
        let viaReader = bytes.withUnsafeBufferPointer { ClientMessageReader.read(utf8: $0).flatMap(table.resolve) }
        XCTAssertEqual(viaShortcut, viaReader)
        XCTAssertEqual(viaShortcut, .success(.init(index: 0, payload: .text("\u{FFFD}A"))))
    }

    func testNamesAreMatchedByTheirWholeBytes() {
        XCTAssertNil(plain(#"{"input":"user","value":"x"}"#))
        XCTAssertNil(plain(#"{"input":"usernames","value":"x"}"#))
        XCTAssertNil(plain(#"{"input":"loginTappedx"}"#))
        XCTAssertEqual(plain(#"{"input":"loginTapped"}"#), .init(index: 1, payload: .tap))
        XCTAssertEqual(plain(#"{"input":"","value":"x"}"#), .init(index: 3, payload: .text("x")))
    }

    /// A name holding a character JSON escapes never appears plain: such an input has no
    /// head, and its messages go the full way, which reads the escapes.
    func testANameWithAQuoteOrBackslashIsLeftToTheFullReader() {
        let table = InputTable([(name: "say \"hi\"", kind: .text), (name: "a\\b", kind: .tap)])
        for text in [#"{"input":"say \"hi\"","value":"x"}"#, #"{"input":"a\\b"}"#] {
            var message = text
            XCTAssertNil(message.withUTF8 { table.plainEvent($0) }, text)
            let full = ClientMessageReader.read(text).flatMap(table.resolve)
            XCTAssertEqual(message.withUTF8 { table.decode(utf8: $0) }, full, text)
            XCTAssertNotNil(try? full.get(), text)
        }
    }

    /// The value scan reads eight bytes at a time: a quote, a backslash or a control
    /// character at each place of a word (and in the last word, which overlaps the one
    /// before) sends the message the full way, and a byte above 0x7F or next to those does not.
    func testEveryEndingByteAtEveryPlaceOfALongValue() {
        // Whether the shortcut answers a value holding the byte (else the full reader does).
        let bytes: [(text: String, shortcut: Bool)] = [("\"", false), ("\\\"", false), ("\\n", false), ("\t", false), ("\u{1F}", false),
                                                       ("\u{7F}", true), ("\u{E9}", true),
                                                       // next to the ending bytes: no test of one byte spills into the next
                                                       (" ", true), ("!", true), ("#", true), ("[", true), ("]", true)]
        for length in 0..<20 {
            for at in 0...length {
                for (byte, shortcut) in bytes {
                    var value = String(repeating: "a", count: length)
                    value.insert(contentsOf: byte, at: value.index(value.startIndex, offsetBy: at))
                    let text = #"{"input":"username","value":""# + value + #""}"#
                    XCTAssertEqual(decoded(text), full(text), text)
                    XCTAssertEqual(plain(text), shortcut ? .init(index: 0, payload: .text(value)) : nil, text)
                }
                let text = #"{"input":"username","value":""# + String(repeating: "b", count: length) + #""}"#
                XCTAssertEqual(plain(text), .init(index: 0, payload: .text(String(repeating: "b", count: length))), text)
            }
        }
    }

    /// Heads are compared a word at a time, the last word overlapping: one differing byte at
    /// any place of a name of any length is seen.
    func testNamesDifferingInAnyOneByteAreTold() {
        for length in 1..<24 {
            let name = (0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) }
            let table = InputTable([(name: String(name), kind: .text)])
            func event(_ name: [UInt8]) -> InputTable.Event? {
                var message = Array(#"{"input":""#.utf8) + name + Array(#"","value":"v"}"#.utf8)
                return message.withUnsafeMutableBufferPointer { table.plainEvent(UnsafeBufferPointer($0)) }
            }
            XCTAssertEqual(event(Array(String(name).utf8)), .init(index: 0, payload: .text("v")))
            for at in 0..<length {
                var other = Array(String(name).utf8)
                other[at] = 0x5F  // _
                XCTAssertNil(event(other), "\(length) \(at)")
            }
        }
    }

    /// A short ASCII value is built as a small string from its bytes: it must be the very
    /// string `String(decoding:as:)` makes (the same two words, so equal, hashed and counted
    /// alike), at every length and with every ASCII byte at each end, and a longer or
    /// non-ASCII value must still come out right.
    func testShortValuesAreTheStringsDecodingMakes() {
        func bits(_ string: String) -> [UInt64] {
            withUnsafeBytes(of: string) { Array($0.bindMemory(to: UInt64.self)) }
        }
        let fillers: [UInt8] = [0x20, 0x41, 0x7E, 0x7F]
        for length in 0...17 {
            for edge in UInt8(0x20)...UInt8(0x7F) where edge != 0x22 && edge != 0x5C {
                for filler in fillers {
                    var value = [UInt8](repeating: filler, count: length)
                    if length > 0 { value[0] = edge; value[length - 1] = edge }
                    let expected = String(decoding: value, as: UTF8.self)
                    let text = #"{"input":"username","value":""# + expected + #""}"#
                    guard case .text(let made)? = plain(text)?.payload else { return XCTFail(text) }
                    XCTAssertEqual(made, expected, text)
                    XCTAssertEqual(Array(made.utf8), value, text)
                    XCTAssertEqual(made.count, length, text)
                    XCTAssertEqual(made.hashValue, expected.hashValue, text)
                    if length <= 15 { XCTAssertEqual(bits(made), bits(expected), text) }
                }
            }
        }
        for value in ["\u{E9}t\u{E9}", "12345678901234\u{E9}", "a\u{1F600}"] {
            let text = #"{"input":"username","value":""# + value + #""}"#
            XCTAssertEqual(plain(text), .init(index: 0, payload: .text(value)), text)
        }
    }
}
