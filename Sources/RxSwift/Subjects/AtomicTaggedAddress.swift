import Synchronization

/// An object's address and a two-bit tag sharing one atomic word: heap objects are 16-byte
/// aligned, so the low bits of their addresses are free. The address is fixed at `init`;
/// the tag changes atomically.
///
/// It keeps no reference to the object: whoever owns the word makes sure the object is
/// alive whenever the address is used (a subject subscription does so with its tag).
@usableFromInline
struct AtomicTaggedAddress: ~Copyable, Sendable {
    /// The bits of the word that hold the tag.
    @usableFromInline
    static var tagMask: UInt { 3 }

    @usableFromInline
    let word: Atomic<UInt>

    /// The address of `object`, unretained, with `tag` (at most `tagMask`).
    @inlinable
    init(_ object: AnyObject, tag: UInt) {
        let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        assert(address & Self.tagMask == 0 && tag & ~Self.tagMask == 0, "an address with free low bits and a two-bit tag")
        word = Atomic(address | tag)
    }

    /// The address given at `init` (it never changes, so a relaxed load reads it).
    @inlinable
    var address: UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: word.load(ordering: .relaxed) & ~Self.tagMask)!
    }

    /// The tag now (an acquiring load).
    @inlinable
    var tag: UInt {
        word.load(ordering: .acquiring) & Self.tagMask
    }

    /// Replaces the tag with `desired` if it is `expected` (acquiring and releasing); returns
    /// whether it did.
    @inlinable
    func replaceTag(_ expected: UInt, with desired: UInt) -> Bool {
        exchangeTag(expected, desired).exchanged
    }

    /// `replaceTag(_:with:)` for a caller that goes on to use the address: the address when
    /// the tag was replaced, nil when the tag was another.
    @inlinable
    func addressReplacingTag(_ expected: UInt, with desired: UInt) -> UnsafeRawPointer? {
        let (exchanged, address) = exchangeTag(expected, desired)
        guard exchanged else { return nil }
        // Unwrapped here, so that the caller's test for nil folds away.
        return UnsafeRawPointer(bitPattern: address)!
    }

    @inlinable @inline(__always)
    func exchangeTag(_ expected: UInt, _ desired: UInt) -> (exchanged: Bool, address: UInt) {
        let address = word.load(ordering: .relaxed) & ~Self.tagMask
        let exchanged = word.compareExchange(expected: address | expected, desired: address | desired,
                                             ordering: .acquiringAndReleasing).exchanged
        return (exchanged, address)
    }

    /// Sets the tag to `tag` (a releasing store). `address` is the one `addressReplacingTag` returned:
    /// passing it back saves reloading the word.
    @inlinable
    func storeTag(_ tag: UInt, address: UnsafeRawPointer) {
        assert(address == self.address, "the address this word holds")
        word.store(UInt(bitPattern: address) | tag, ordering: .releasing)
    }
}
