import Dispatch
@testable import RxSwift
import Synchronization
import XCTest

/// The per-source disposable states of a combineLatest sink, two bits a slot in one word.
final class InlineDisposableSlotsTests: XCTestCase {
    /// Set, then disposed: the disposer takes the disposable out, once.
    func testPublishThenDisposeDisposesOnce() {
        let slots = InlineDisposableSlots()
        XCTAssertTrue(slots.publish(0), "a slot not yet disposed keeps its disposable")
        XCTAssertTrue(slots.markDisposed(0), "the first dispose takes it out")
        XCTAssertFalse(slots.markDisposed(0), "a second dispose finds nothing")
        XCTAssertEqual(slots.bits.load(ordering: .relaxed), 0b11)
    }

    /// Disposed before its disposable came: the setter disposes it at once.
    func testDisposeBeforePublishHandsTheDisposableBack() {
        let slots = InlineDisposableSlots()
        XCTAssertFalse(slots.markDisposed(0), "nothing to take out yet")
        XCTAssertFalse(slots.publish(0), "the setter disposes it itself")
        XCTAssertFalse(slots.markDisposed(0))
    }

    /// Each of the eight slots has its own two bits: slot `i` set is bit `2i`, disposed `2i + 1`.
    func testEachOfEightSlotsHasItsOwnTwoBits() {
        let slots = InlineDisposableSlots()
        for index in 0..<8 where index % 2 == 0 {
            XCTAssertTrue(slots.publish(index))
        }
        XCTAssertEqual(slots.bits.load(ordering: .relaxed), 0b0001_0001_0001_0001)
        for index in 0..<8 where index % 4 == 0 {
            XCTAssertTrue(slots.markDisposed(index))
        }
        XCTAssertEqual(slots.bits.load(ordering: .relaxed), 0b0001_0011_0001_0011)
        XCTAssertFalse(slots.markDisposed(7), "slot 7 was never set")
        XCTAssertFalse(slots.publish(7))
        XCTAssertTrue(slots.markDisposed(2), "slot 2 untouched by the others")
        XCTAssertEqual(slots.bits.load(ordering: .relaxed), 0b1101_0011_0011_0011)
    }

    /// A publish racing a dispose: the disposable is disposed exactly once, by one of them.
    func testPublishRacingDisposeDisposesExactlyOnce() {
        for _ in 0..<2_000 {
            let race = Race()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    if !race.slots.publish(3) { race.disposals.add(1, ordering: .relaxed) }
                } else {
                    if race.slots.markDisposed(3) { race.disposals.add(1, ordering: .relaxed) }
                }
            }
            XCTAssertEqual(race.disposals.load(ordering: .relaxed), 1)
        }
    }

    private final class Race: Sendable {
        let slots = InlineDisposableSlots()
        let disposals = Atomic<Int>(0)
    }
}
