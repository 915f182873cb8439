import ObjectSizeTestSupport
@testable import RxSwift
import Synchronization
import XCTest

/// The sizes that comments in Sources/RxSwift state, pinned here: a layout change fails one
/// of these, and the comment is corrected with the test.
final class RxLayoutTests: RxTestCase {
    /// `PublishSubject`: "40 bytes, a 48-byte malloc block". Debug builds add one reference,
    /// the synchronization tracker.
    func testPublishSubjectIs40BytesInA48ByteBlock() {
        let subject = PublishSubject<Int>()
        #if DEBUG
        let debugOnly = MemoryLayout<SynchronizationTracker>.size
        #else
        let debugOnly = 0
        #endif
        XCTAssertEqual(ObjectSize.instance(of: PublishSubject<Int>.self) - debugOnly, 40)
        XCTAssertEqual(ObjectSize.instance(of: PublishSubject<String>.self) - debugOnly, 40, "the element type changes nothing")
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 40), 48)
        if ObjectSize.isSystemMalloc {
            XCTAssertEqual(ObjectSize.mallocBlock(of: subject), ObjectSize.mallocBlock(forAllocationOf: 40 + debugOnly))
        }
    }

    /// A subject's subscription (`SubjectObserverList.swift`): "with its handler the object is
    /// 40 bytes, a 48-byte malloc block".
    func testSubjectSubscriptionIs40BytesInA48ByteBlock() throws {
        let subject = PublishSubject<Int>()
        // What the subject makes and keeps for one observer.
        let made = try XCTUnwrap(subject.subscribeHandler { _ in })
        defer { made.dispose() }
        XCTAssertTrue(type(of: made) == OwnedSubjectSubscription<PublishSubject<Int>, Int>.self)
        XCTAssertEqual(ObjectSize.instance(of: OwnedSubjectSubscription<PublishSubject<Int>, Int>.self), 40)
        XCTAssertEqual(ObjectSize.instance(of: OwnedSubjectSubscription<PublishSubject<String>, String>.self), 40)
        if ObjectSize.isSystemMalloc {
            XCTAssertEqual(ObjectSize.mallocBlock(of: made), 48)
        }
    }

    /// `combineLatest`'s sink (`generate_combine_latest.py`): its flags in one integer, so
    /// that up to three sources the lock's mutex fits in the word after `Sink`'s flag: 168
    /// bytes for three sources, a 176-byte malloc block (176 bytes and a 192-byte block when
    /// each flag had its own byte), 136 for two. Debug builds add the synchronization
    /// tracker, a word and its padding.
    func testCombineLatestSinkOfThreeIs168Bytes() {
        #if DEBUG
        let debugOnly = 16
        #else
        let debugOnly = 0
        #endif
        typealias Three = CombineLatestSink3<String?, String?, String?, AnyObserver<Int>>
        typealias Two = CombineLatestSink2<String?, String?, AnyObserver<Int>>
        XCTAssertEqual(ObjectSize.instance(of: Three.self) - debugOnly, 168)
        XCTAssertEqual(ObjectSize.instance(of: Two.self) - debugOnly, 136)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 168), 176)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 176), 192)
        XCTAssertEqual(MemoryLayout<InlineRecursiveLock>.alignment, 8, "kept whole, the lock would start at the next word")
    }

    /// `InlineDisposableSlots` and `Observable.subscribeErasedObject`: a disposable kept as a
    /// class reference takes 16 bytes, where a `Disposable` existential under its own mutex
    /// took 48 (a bare existential takes 40).
    func testDisposableAsClassReferenceIs16Bytes() {
        XCTAssertEqual(MemoryLayout<(AnyObject & Disposable)?>.size, 16)
        XCTAssertEqual(MemoryLayout<Disposable>.size, 40)
        XCTAssertEqual(MemoryLayout<Mutex<Disposable?>>.size, 48)
        XCTAssertEqual(MemoryLayout<InlineDisposableSlots>.size, 2, "eight slots' states in one 16-bit word")
        XCTAssertEqual(MemoryLayout<InlineSingleAssignmentDisposable>.size, 24, "the mutex's word, then the state in 16 bytes")
    }

    /// `SinkDisposer`: "40 bytes in a 48-byte malloc block, not 56 in a 64-byte one": its
    /// sink's address shares the flags' word, its subscription kept as a class existential.
    func testSinkDisposerIs40BytesInA48ByteBlock() {
        XCTAssertEqual(ObjectSize.instance(of: SinkDisposer.self), 40)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 40), 48)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 56), 64)
    }

    /// The disposer keeps a sink that is no `SinkBase` in a box and still disposes it once,
    /// whether `dispose()` comes after the sink is set or before.
    func testASinkThatIsNoSinkBaseIsDisposedOnce() {
        final class CountingSink: Disposable {
            var disposals = 0
            func dispose() { disposals += 1 }
        }
        for disposeFirst in [false, true] {
            let disposer = SinkDisposer()
            let sink = CountingSink()
            if disposeFirst { disposer.dispose() }
            disposer.setSinkAndSubscription(sink: sink, subscription: Disposables.create())
            disposer.dispose()
            disposer.dispose()
            XCTAssertEqual(sink.disposals, 1, "disposed first: \(disposeFirst)")
            XCTAssertTrue(disposer.isDisposed)
        }
    }

    /// `disposableObject(_:)` reads the object and its witness table out of an opaque
    /// existential at the ABI's offsets: the object it returns is the same instance and its
    /// `dispose()` is that instance's; a `NopDisposable` gives nil, a struct a box that
    /// disposes it once.
    func testSubscriptionObjectKeepsTheInstanceAndItsDispose() throws {
        XCTAssertEqual(MemoryLayout<Disposable>.size, 5 * MemoryLayout<UnsafeRawPointer>.size, "buffer, type, witness table")
        XCTAssertEqual(MemoryLayout<AnyObject & Disposable>.size, 2 * MemoryLayout<UnsafeRawPointer>.size, "reference, witness table")
        let object = BooleanDisposable()
        let converted = try XCTUnwrap(disposableObject(object))
        XCTAssertTrue(converted === object)
        converted.dispose()
        XCTAssertTrue(object.isDisposed)

        XCTAssertNil(disposableObject(Disposables.create()))

        let counter = DisposeCounter()
        let boxed = try XCTUnwrap(disposableObject(CountingDisposable(counter: counter)))
        boxed.dispose()
        boxed.dispose()
        XCTAssertEqual(counter.count, 1)
    }

    /// `AtomicTaggedAddress` is the one word the subscription kept before it had a name.
    func testTaggedAddressIsOneWord() {
        XCTAssertEqual(MemoryLayout<AtomicTaggedAddress>.size, MemoryLayout<UInt>.size)
        XCTAssertEqual(MemoryLayout<AtomicTaggedAddress>.alignment, MemoryLayout<UInt>.alignment)
    }
}

/// `ObjectSize` itself, on classes whose sizes follow from their fields.
final class ObjectSizeTests: XCTestCase {
    private final class NoFields {}
    private final class OneWord { var value = 0 }
    private final class ThreeWords { var values = (0, 0, 0) }
    private class Base { var flag = false }
    private final class Derived: Base { var pair = (0, 0) }

    func testInstanceSizeIsTheHeaderAndTheStoredProperties() {
        XCTAssertEqual(ObjectSize.instance(of: NoFields.self), 16)
        XCTAssertEqual(ObjectSize.instance(of: OneWord.self), 24)
        XCTAssertEqual(ObjectSize.instance(of: ThreeWords.self), 40)
        XCTAssertEqual(ObjectSize.instance(of: Derived.self), 40, "the base's Bool padded to a word, then the pair")
    }

    func testMallocBlockOfALiveObjectMatchesTheRule() throws {
        try XCTSkipUnless(ObjectSize.isSystemMalloc, "a sanitizer's allocator sizes blocks its own way")
        XCTAssertEqual(ObjectSize.mallocBlock(of: OneWord()), ObjectSize.mallocBlock(forAllocationOf: 24))
        XCTAssertEqual(ObjectSize.mallocBlock(of: ThreeWords()), ObjectSize.mallocBlock(forAllocationOf: 40))
        XCTAssertEqual(ObjectSize.mallocBlock(of: Derived()), ObjectSize.mallocBlock(forAllocationOf: 40))
        #if canImport(Glibc)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 24), 32)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 40), 48)
        XCTAssertEqual(ObjectSize.mallocBlock(forAllocationOf: 128), 144)
        #endif
    }
}

/// A struct disposable, as client code may write one, counting its disposals.
private struct CountingDisposable: Disposable {
    let counter: DisposeCounter
    func dispose() { counter.count += 1 }
}

private final class DisposeCounter {
    var count = 0
}
