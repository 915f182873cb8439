import ObjectSizeTestSupport
import RxSwift
@testable import Sessions
import XCTest

/// The sizes that comments in Sources/Sessions state, pinned here: a layout change fails one
/// of these, and the comment is corrected with the test.
final class SessionsLayoutTests: XCTestCase {
    /// `TokenBucket`: "a session's bucket is one word" (its tokens and last refill took two).
    func testTokenBucketIsOneWord() {
        XCTAssertEqual(MemoryLayout<TokenBucket>.size, 8)
    }

    /// `Session.State`: the state and the output subscriptions in one word, where the
    /// subscriptions as a class existential took two and the state a byte more.
    func testSessionStateWithItsSubscriptionsIsOneWord() {
        XCTAssertEqual(MemoryLayout<Session.State>.size, 8)
        XCTAssertEqual(MemoryLayout<OutputDisposal?>.size, 8)
        XCTAssertEqual(MemoryLayout<(any AnyObject & Disposable)?>.size, 16)
    }

    /// `Session.traceTap` is the one word it was before it had a name.
    func testTraceReferenceIsOneWord() {
        XCTAssertEqual(MemoryLayout<AtomicRetainedReference<Tap<Marble>>>.size, MemoryLayout<UInt>.size)
    }

    /// `SessionFeeds`: three feeds in an array of their own would take a 64-byte malloc block;
    /// inline they take three words of the session.
    func testThreeFeedsInAnArrayTakeA64ByteBlock() throws {
        XCTAssertEqual(MemoryLayout<WireInputs.Feed?>.size, 8, "a feed is one reference")
        XCTAssertEqual(MemoryLayout<SessionFeeds>.size, 3 * 8)
        try XCTSkipUnless(ObjectSize.isSystemMalloc, "a sanitizer's allocator sizes blocks its own way")
        let feeds: [WireInputs.Feed] = [.text(InlinePublishSubject()), .tap(InlinePublishSubject()), .text(InlinePublishSubject())]
        XCTAssertEqual(ObjectSize.mallocBlock(of: unsafeBitCast(feeds, to: AnyObject.self)), 64)
    }

    /// `Tap`: "48 bytes with `recorder`, a 64-byte malloc block" (only a watched or recorded session has one).
    func testTapIs48BytesInA64ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: Tap<Marble>.self), 48)
        if ObjectSize.isSystemMalloc {
            XCTAssertEqual(ObjectSize.mallocBlock(of: Tap<Marble>()), 64)
        }
    }

    /// `Session`: "101 bytes in a 112-byte malloc block" (116 in a 128-byte one before its
    /// transport took one word and its user moved to `SignedInSession`; 136 and 144 before its
    /// state and subscriptions shared a word and its bucket shrank to one); its registry index
    /// (`SessionRegistry`) takes half its last word, and no list of tap buckets takes one.
    func testSessionIs101BytesInA112ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: Session.self), 101)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: ObjectSize.instance(of: Session.self)), 112)
        XCTAssertEqual(ObjectSize.instance(of: SignedInSession.self), 112)
        XCTAssertEqual(MemoryLayout<Session>.size, 8, "the registry lists a session as one reference")
    }
}
