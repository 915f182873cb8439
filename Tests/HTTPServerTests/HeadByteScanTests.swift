@testable import HTTPServer
import XCTest

/// `HeadByteScan`'s sixteen-byte steps against a byte loop, at every alignment.
final class HeadByteScanTests: XCTestCase {
    /// The first control byte or DEL of sixteen, at each place, and 16 when there is none;
    /// bytes from 0x80 up and the space are ordinary.
    func testOrdinaryByteCountStopsAtTheFirstControlByteOrDelete() {
        let ordinary: [UInt8] = [0x20, 0x41, 0x7E, 0x80, 0xFF]
        for control: UInt8 in [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F] {
            for place in 0...16 {
                var bytes = (0..<32).map { ordinary[$0 % ordinary.count] }
                if place < 16 { bytes[place] = control }
                bytes[20] = control   // past the sixteen: never seen
                let count = bytes.withUnsafeBytes { HeadByteScan.ordinaryByteCount(at: $0.baseAddress!) }
                XCTAssertEqual(count, place, "control \(control) at \(place)")
            }
        }
    }

    /// The same answers as `firstIndex(of:)` on the range, for random bytes, ranges and buffer
    /// ends: a match past `end` (but inside the buffer the step reads) is not one.
    func testFirstIndexMatchesAByteLoop() {
        var generator = SplitMix64(seed: 0x5CA9)
        for _ in 0..<4000 {
            let count = Int(generator.next() % 70)
            let bytes = (0..<count).map { _ in [UInt8(ascii: ":"), UInt8(ascii: "a"), 0x00, 0xBA][Int(generator.next() % 4)] }
            let start = count == 0 ? 0 : Int(generator.next() % UInt64(count + 1))
            let end = start + Int(generator.next() % UInt64(count - start + 1))
            let found = bytes.withUnsafeBufferPointer { HeadByteScan.firstIndex(of: UInt8(ascii: ":"), in: $0, from: start, to: end) }
            XCTAssertEqual(found, bytes[start..<end].firstIndex(of: UInt8(ascii: ":")), "\(bytes) \(start)..<\(end)")
        }
    }

    /// An empty range and an empty buffer find nothing.
    func testEmptyRangesFindNothing() {
        let bytes = Array("::::::::::::::::::::".utf8)
        XCTAssertNil(bytes.withUnsafeBufferPointer { HeadByteScan.firstIndex(of: UInt8(ascii: ":"), in: $0, from: 5, to: 5) })
        XCTAssertNil([UInt8]().withUnsafeBufferPointer { HeadByteScan.firstIndex(of: UInt8(ascii: ":"), in: $0, from: 0, to: 0) })
    }
}
