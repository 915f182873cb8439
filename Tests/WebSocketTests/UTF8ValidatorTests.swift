import XCTest
@testable import WebSocket

final class UTF8ValidatorTests: XCTestCase {
    private func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { UTF8Validator.isValid($0) }
    }

    /// Feeds `bytes` split at `split`; returns (accepted while feeding, complete at end).
    private func feedSplit(_ bytes: [UInt8], at split: Int) -> (Bool, Bool) {
        var validator = UTF8Validator()
        let first = bytes[..<split].withUnsafeBytes { validator.validate($0) }
        guard first else { return (false, false) }
        let second = bytes[split...].withUnsafeBytes { validator.validate($0) }
        return (second, validator.isComplete)
    }

    func testValidSequences() {
        XCTAssertTrue(isValid([]))
        XCTAssertTrue(isValid(Array("plain ASCII text that is longer than eight bytes".utf8)))
        XCTAssertTrue(isValid(Array("κόσμε €𝄞 \u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}".utf8)))
        XCTAssertTrue(isValid([0xEF, 0xBF, 0xBF]))               // U+FFFF (noncharacter, still valid)
        XCTAssertTrue(isValid([0xF4, 0x8F, 0xBF, 0xBF]))         // U+10FFFF, the last code point
        XCTAssertTrue(isValid([0xED, 0x9F, 0xBF]))               // U+D7FF, just below surrogates
        XCTAssertTrue(isValid([0xEE, 0x80, 0x80]))               // U+E000, just above surrogates
    }

    func testOverlongFormsAreRejected() {
        XCTAssertFalse(isValid([0xC0, 0xAF]))                    // "/" in two bytes
        XCTAssertFalse(isValid([0xC1, 0xBF]))
        XCTAssertFalse(isValid([0xE0, 0x80, 0xAF]))              // "/" in three bytes
        XCTAssertFalse(isValid([0xE0, 0x9F, 0xBF]))              // U+07FF in three bytes
        XCTAssertFalse(isValid([0xF0, 0x80, 0x80, 0xAF]))        // "/" in four bytes
        XCTAssertFalse(isValid([0xF0, 0x8F, 0xBF, 0xBF]))        // U+FFFF in four bytes
    }

    func testSurrogatesAreRejected() {
        XCTAssertFalse(isValid([0xED, 0xA0, 0x80]))              // U+D800
        XCTAssertFalse(isValid([0xED, 0xBF, 0xBF]))              // U+DFFF
        XCTAssertFalse(isValid([0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80])) // an encoded pair
    }

    func testCodePointsAboveMaximumAreRejected() {
        XCTAssertFalse(isValid([0xF4, 0x90, 0x80, 0x80]))        // U+110000
        XCTAssertFalse(isValid([0xF5, 0x80, 0x80, 0x80]))
        XCTAssertFalse(isValid([0xF8, 0x88, 0x80, 0x80, 0x80]))  // old 5-byte form
        XCTAssertFalse(isValid([0xFE]))
        XCTAssertFalse(isValid([0xFF]))
    }

    func testStrayAndMissingContinuationBytesAreRejected() {
        XCTAssertFalse(isValid([0x80]))
        XCTAssertFalse(isValid([0x41, 0xBF, 0x41]))
        XCTAssertFalse(isValid([0xC3, 0x41]))                    // lead followed by ASCII
        XCTAssertFalse(isValid([0xE2, 0x82, 0x41]))
    }

    func testTruncatedSequenceIsIncompleteNotInvalid() {
        var validator = UTF8Validator()
        let accepted = [UInt8]([0x41, 0xF0, 0x9D]).withUnsafeBytes { validator.validate($0) }
        XCTAssertTrue(accepted)
        XCTAssertFalse(validator.isComplete)
        XCTAssertFalse(isValid([0x41, 0xF0, 0x9D]))
    }

    func testEveryValidStringIsAcceptedAtEverySplit() {
        let bytes = Array("a€b𝄞cκd\u{10FFFF}e".utf8)
        for split in 0 ... bytes.count {
            let (accepted, complete) = feedSplit(bytes, at: split)
            XCTAssertTrue(accepted && complete, "split at \(split)")
        }
    }

    func testInvalidInputIsRejectedAtEverySplit() {
        for bytes: [UInt8] in [[0x61, 0xED, 0xA0, 0x80, 0x62], [0x61, 0xE0, 0x80, 0x80], [0x61, 0xF4, 0x90, 0x80, 0x80]] {
            for split in 0 ... bytes.count {
                let (accepted, complete) = feedSplit(bytes, at: split)
                XCTAssertFalse(accepted && complete, "\(bytes) split at \(split)")
            }
        }
    }

    func testFailsOnTheFirstImpossibleByte() {
        // After E0 the byte 0x80 can never lead to a valid character: reject it
        // without waiting for the third byte.
        var validator = UTF8Validator()
        XCTAssertTrue([UInt8]([0xE0]).withUnsafeBytes { validator.validate($0) })
        XCTAssertFalse([UInt8]([0x80]).withUnsafeBytes { validator.validate($0) })
        validator.reset()
        XCTAssertTrue([UInt8]([0xF4]).withUnsafeBytes { validator.validate($0) })
        XCTAssertFalse([UInt8]([0x90]).withUnsafeBytes { validator.validate($0) })
    }

    func testAgreesWithTheStandardLibraryOnAllTwoByteInputs() {
        // Exhaustive over pairs, plus each pair after an ASCII run (the fast path).
        for a in 0 ... 255 {
            for b in 0 ... 255 {
                let bytes: [UInt8] = [UInt8(a), UInt8(b)]
                let expected = String(validating: bytes, as: UTF8.self) != nil
                XCTAssertEqual(isValid(bytes), expected, "\(bytes)")
                XCTAssertEqual(isValid(Array("12345678".utf8) + bytes), expected)
            }
        }
    }

    func testAgreesWithTheStandardLibraryOnThreeByteSequences() {
        for a in 0xE0 ... 0xF4 {
            for b in 0x70 ... 0xC0 {
                for c in [0x41, 0x80, 0x8F, 0x90, 0xA0, 0xBF, 0xC0] {
                    let bytes: [UInt8] = [UInt8(a), UInt8(b), UInt8(c)]
                    let expected = String(validating: bytes, as: UTF8.self) != nil
                    XCTAssertEqual(isValid(bytes), expected, "\(bytes)")
                }
            }
        }
    }
}
