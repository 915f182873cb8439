import XCTest
@testable import Sessions

/// The bytes a recording's lines are written with (`RecordingBuffer`): decimals, JSON strings
/// as `String.appendJSONString` writes them, and the timed line that copies a message.
final class RecordingBufferTests: XCTestCase {
    private func written(_ room: Int = 64, _ write: (inout RecordingBuffer) -> Void) -> String {
        var buffer = RecordingBuffer(capacity: 16)
        buffer.reserve(room)
        write(&buffer)
        return buffer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    func testADecimalOfEveryWidthIsItsDigits() {
        var values: [UInt64] = [0, UInt64.max, UInt64.max - 1, 100_000_000, 99_999_999, 123_456_789_012]
        var power: UInt64 = 1
        for _ in 0..<19 {
            values += [power - 1, power, power + 1, power * 9 + 7]
            power *= 10
        }
        var random = SystemRandomNumberGenerator()
        values += (0..<500).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) >> UInt64.random(in: 0...63, using: &random) }
        values += (0..<2_000).map { _ in UInt64.random(in: 0..<100_000_000, using: &random) }  // the eight-digit word's range
        values += stride(from: 0, to: 100_000_000, by: 99_991).map(UInt64.init)
        for value in values {
            XCTAssertEqual(written { $0.put(decimal: value) }, String(value))
        }
    }

    func testAJSONStringIsEscapedExactlyAsAppendJSONStringEscapesIt() {
        let texts = ["", "plain", "say \"hi\"", "back\\slash", "line\nfeed\r\ttab", "\u{08}\u{0C}\u{00}\u{01}\u{1F}\u{7F}",
                     "é ü 中文 🙂", "\u{2028}\u{2029}", "\"", "\\", "end\u{1B}"]
        for text in texts {
            var expected = ""
            expected.appendJSONString(text)
            var copy = text
            let got = copy.withUTF8 { utf8 in
                written(RecordingBuffer.roomForJSONString(utf8.count)) { $0.put(jsonString: UnsafeRawBufferPointer(utf8)) }
            }
            XCTAssertEqual(got, expected, "\(text.debugDescription)")
        }
    }

    func testATimedLineIsTheMessageWithTheTimeFirstForEveryLengthAndTime() {
        for length in 1...100 {
            let message = "{" + String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            for time: UInt64 in [0, 7, 42, 999, 1_000_000, 99_999_999, 100_000_000, 86_400_000_000] {
                var copy = message
                let line = copy.withUTF8 { utf8 in
                    written(200) { $0.putTimedLine(time, continuing: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[1...])) }
                }
                XCTAssertEqual(line, "{\"t\":\(time)," + message.dropFirst() + "\n", "length \(length), time \(time)")
            }
        }
    }

    func testTheBufferGrowsToHoldALineLongerThanItsRoomAndKeepsWhatItHeld() {
        var buffer = RecordingBuffer(capacity: 16)
        buffer.reserve(5)
        buffer.put("first")
        let long = String(repeating: "x", count: 10_000)
        buffer.reserve(long.utf8.count)
        buffer.put(text: long)
        XCTAssertEqual(buffer.withBytes { String(decoding: $0, as: UTF8.self) }, "first" + long)
        buffer.removeFrom(5)
        XCTAssertEqual(buffer.count, 5)
    }
}
