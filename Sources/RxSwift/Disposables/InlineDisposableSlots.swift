import Synchronization

/// The states of up to eight disposables a sink keeps in stored properties of its own, one
/// per source (combineLatest), in one atomic word: each slot takes its disposable once, and a
/// slot disposed before it is set disposes the disposable as soon as it comes, as
/// `SingleAssignmentDisposable` does.
///
/// The sink stores each disposable as a class reference (16 bytes, where a `Disposable`
/// existential under its own mutex took 48: `RxLayoutTests`) and calls `publish` after storing it and
/// `markDisposed` before taking it out: the state says which one thread may touch a slot.
@usableFromInline
struct InlineDisposableSlots: ~Copyable, Sendable {
    /// Slot `i`: bit `2i` set, bit `2i + 1` disposed.
    @usableFromInline
    let bits = Atomic<UInt16>(0)

    @inlinable
    init() {}

    /// Slot `index` now holds its disposable. `false` when the slot was disposed first: the
    /// caller takes the disposable back and disposes it.
    @inlinable
    borrowing func publish(_ index: Int) -> Bool {
        let set = UInt16(1) << (2 * index)
        let old = bits.bitwiseOr(set, ordering: .acquiringAndReleasing).oldValue
        if old & set != 0 {
            rxFatalError("oldState.disposable != nil")
        }
        return old & (set << 1) == 0
    }

    /// Marks slot `index` disposed. `true` when it held a disposable not yet disposed: the
    /// caller takes it out and disposes it.
    @inlinable
    borrowing func markDisposed(_ index: Int) -> Bool {
        let set = UInt16(1) << (2 * index)
        let old = bits.bitwiseOr(set << 1, ordering: .acquiringAndReleasing).oldValue
        return old & (set | set << 1) == set
    }
}

/// `disposable` as a class existential, without a dynamic cast (a conformance look-up per
/// subscription): nil for a `NopDisposable`, the object for an instance of a class, else a
/// box that disposes it. The object keeps the witness table `disposable` carries: an opaque
/// existential holds it after its three-word buffer and its type, a class existential after
/// its reference (the Swift ABI's existential layouts; `RxLayoutTests` checks both).
@inlinable @inline(__always)
package func disposableObject(_ disposable: Disposable) -> (AnyObject & Disposable)? {
    // `as Disposable`: passed bare, the existential would be opened (SE-0352) and the bytes
    // would be the instance's reference alone. The type is read from the container, not
    // asked of the runtime (`type(of:)` calls `swift_getDynamicType`).
    withUnsafeBytes(of: disposable as Disposable) { container in
        let word = MemoryLayout<UnsafeRawPointer>.size
        let type = container.load(fromByteOffset: 3 * word, as: Any.Type.self)
        if type == NopDisposable.self {
            return nil
        }
        guard type is AnyObject.Type else {
            return AnonymousDisposable(disposable.dispose)
        }
        let object = container.load(as: AnyObject.self)
        let witnesses = container.load(fromByteOffset: 4 * word, as: UnsafeRawPointer.self)
        return unsafeBitCast((object, witnesses), to: (AnyObject & Disposable).self)
    }
}
