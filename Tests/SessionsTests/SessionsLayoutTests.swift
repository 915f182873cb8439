import ObjectSizeTestSupport
import RxSwift
@testable import Sessions
import XCTest

/// The sizes that comments in Sources/Sessions state, pinned here: a layout change fails one
/// of these, and the comment is corrected with the test.
final class SessionsLayoutTests: XCTestCase {
    /// `TokenBucket`: "a session's bucket is 16 bytes".
    func testTokenBucketIs16Bytes() {
        XCTAssertEqual(MemoryLayout<TokenBucket>.size, 16)
    }

    /// `Session.subscription`: "16 bytes where a `Disposable` existential takes 40".
    func testSessionSubscriptionIs16Bytes() {
        XCTAssertEqual(MemoryLayout<(any AnyObject & Disposable)?>.size, 16)
        XCTAssertEqual(MemoryLayout<any Disposable>.size, 40)
    }

    /// `Session.traceTap` is the one word it was before it had a name.
    func testTraceReferenceIsOneWord() {
        XCTAssertEqual(MemoryLayout<AtomicRetainedReference<Tap<Marble>>>.size, MemoryLayout<UInt>.size)
    }

    /// `SessionFeeds`: three feeds in an array of their own would take a 64-byte malloc block;
    /// inline they take three words of the session and the enum's tag byte.
    func testThreeFeedsInAnArrayTakeA64ByteBlock() throws {
        XCTAssertEqual(MemoryLayout<WireInputs.Feed?>.size, 8, "a feed is one reference")
        XCTAssertEqual(MemoryLayout<SessionFeeds>.size, 3 * 8 + 1)
        try XCTSkipUnless(ObjectSize.isSystemMalloc, "a sanitizer's allocator sizes blocks its own way")
        let feeds: [WireInputs.Feed] = [.text(PublishSubject()), .tap(PublishSubject()), .text(PublishSubject())]
        XCTAssertEqual(ObjectSize.mallocBlock(of: unsafeBitCast(feeds, to: AnyObject.self)), 64)
    }

    /// `Tap`: "48 bytes with `recorder`, a 64-byte malloc block" (only a watched or recorded session has one).
    func testTapIs48BytesInA64ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: Tap<Marble>.self), 48)
        if ObjectSize.isSystemMalloc {
            XCTAssertEqual(ObjectSize.mallocBlock(of: Tap<Marble>()), 64)
        }
    }

    /// `Session`: its registry index (`SessionRegistry`, 8 bytes a session in the registry's
    /// list) takes the padding after its state byte, and its signed-in user (one reference) the
    /// last 8 bytes: 144 bytes, the 144-byte malloc block the 130 bytes it had without both took.
    func testSessionIs144BytesInA144ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: Session.self), 144)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 136), ObjectSize.mallocBlock(forAllocationOf: 130))
        XCTAssertEqual(MemoryLayout<Session>.size, 8, "the registry lists a session as one reference")
    }
}
