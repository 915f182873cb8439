import Dispatch
@testable import RxSwift
import Synchronization
import XCTest

/// The subject subscription's word: an object's address and a two-bit tag.
final class AtomicTaggedAddressTests: XCTestCase {
    private final class Owner {}

    func testAddressAndEveryTagRoundTrip() {
        let owner = Owner()
        let expected = UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque())
        for tag in UInt(0)...AtomicTaggedAddress.tagMask {
            let word = AtomicTaggedAddress(owner, tag: tag)
            XCTAssertEqual(word.address, expected)
            XCTAssertEqual(word.tag, tag)
        }
    }

    func testReplaceTagChangesOnlyAnExpectedTagAndKeepsTheAddress() {
        let owner = Owner()
        let expected = UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque())
        let word = AtomicTaggedAddress(owner, tag: 0)
        XCTAssertNil(word.addressReplacingTag(1, with: 2), "the tag is 0, not 1")
        XCTAssertFalse(word.replaceTag(1, with: 2))
        XCTAssertEqual(word.tag, 0)
        XCTAssertEqual(word.addressReplacingTag(0, with: 1), expected)
        XCTAssertEqual(word.tag, 1)
        XCTAssertFalse(word.replaceTag(0, with: 2), "already replaced")
        XCTAssertTrue(word.replaceTag(1, with: 3))
        XCTAssertEqual(word.tag, 3)
        word.storeTag(2, address: expected)
        XCTAssertEqual(word.tag, 2)
        XCTAssertEqual(word.address, expected)
    }

    func testKeepsNoReference() {
        weak var gone: Owner?
        let word: AtomicTaggedAddress = {
            let owner = Owner()
            gone = owner
            return AtomicTaggedAddress(owner, tag: 1)
        }()
        XCTAssertNil(gone, "the word does not keep its object alive")
        XCTAssertEqual(word.tag, 1)
    }

    /// Of two threads replacing the same tag, exactly one does.
    func testOfTwoRacingReplacementsOneWins() {
        let owner = Owner()
        for _ in 0..<2_000 {
            let race = Race(owner)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if race.word.replaceTag(0, with: UInt(index + 1)) {
                    race.winners.add(1, ordering: .relaxed)
                }
            }
            XCTAssertEqual(race.winners.load(ordering: .relaxed), 1)
            XCTAssertNotEqual(race.word.tag, 0)
        }
    }

    private final class Race: Sendable {
        let word: AtomicTaggedAddress
        let winners = Atomic<Int>(0)
        init(_ owner: AnyObject) { word = AtomicTaggedAddress(owner, tag: 0) }
    }
}
