@testable import EventLoop
import XCTest

final class HeapTrimmerTests: XCTestCase {
    func testABurstOfClosesTrimsAndAFewDoNot() {
        XCTAssertFalse(HeapTrimmer.closeArmsTrim(closedSinceTrim: 1, millisecondsSinceBurstTrim: nil))
        XCTAssertFalse(HeapTrimmer.closeArmsTrim(closedSinceTrim: HeapTrimmer.closesBeforeTrim - 1, millisecondsSinceBurstTrim: nil))
        XCTAssertTrue(HeapTrimmer.closeArmsTrim(closedSinceTrim: HeapTrimmer.closesBeforeTrim, millisecondsSinceBurstTrim: nil))
    }

    /// The last closes of a burst that came after its trim (a loop kept off the CPU ran the
    /// settle timer first) trim again, however few; long after the burst, a few do not.
    func testClosesSoonAfterABurstsTrimTrimAgain() {
        XCTAssertTrue(HeapTrimmer.closeArmsTrim(closedSinceTrim: 1, millisecondsSinceBurstTrim: 0))
        XCTAssertTrue(HeapTrimmer.closeArmsTrim(closedSinceTrim: 3, millisecondsSinceBurstTrim: HeapTrimmer.burstMilliseconds - 1))
        XCTAssertFalse(HeapTrimmer.closeArmsTrim(closedSinceTrim: 3, millisecondsSinceBurstTrim: HeapTrimmer.burstMilliseconds))
    }

    /// The timer armed by the first close of a stream fires before the last close has
    /// settled: it waits the rest, and trims only once `settleMilliseconds` passed since that close.
    func testATimerFiringBeforeTheLastCloseSettledWaitsTheRest() {
        XCTAssertEqual(HeapTrimmer.settleWait(now: 1_000, settlesAt: 1_700), 700)
        XCTAssertEqual(HeapTrimmer.settleWait(now: 1_699, settlesAt: 1_700), 1)
        XCTAssertNil(HeapTrimmer.settleWait(now: 1_700, settlesAt: 1_700))
        XCTAssertNil(HeapTrimmer.settleWait(now: 2_500, settlesAt: 1_700))
    }
}
