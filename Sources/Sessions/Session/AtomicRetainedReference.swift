import Synchronization

/// A strong reference to an object that is set at most once, from any thread, and kept in
/// one atomic word: reading it costs one atomic load and no lock.
///
/// The word is in one of three states: 0 while empty; 1 once sealed while still empty (from
/// then on nothing is set); otherwise the address of the object, retained by this
/// reference and released when the reference goes. Objects are aligned, so no address is
/// 0 or 1.
///
/// A session keeps its trace tap in one: the tap is made by the first viewer, and the
/// session's close seals the reference so that a tap made afterwards is made finished.
struct AtomicRetainedReference<Object: AnyObject>: ~Copyable {
    private let word = Atomic<UInt>(Self.empty)

    private static var empty: UInt { 0 }
    private static var sealedEmpty: UInt { 1 }

    /// What `setIfEmpty(_:)` did.
    enum SetOutcome {
        /// The reference now holds the object given.
        case set
        /// An object was set first; the reference keeps it (the one given is not retained).
        case alreadySet(Object)
        /// The reference was sealed while empty; nothing is ever set.
        case sealed
    }

    /// An empty reference.
    init() {}

    deinit {
        let bits = word.load(ordering: .acquiring)
        if bits > Self.sealedEmpty {
            Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        }
    }

    /// The object once set; nil while empty or sealed.
    @inline(__always)
    var object: Object? {
        let bits = word.load(ordering: .acquiring)
        guard bits > Self.sealedEmpty else { return nil }
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }

    /// `body` with the object once set, nil while empty or sealed. The object is lent, not
    /// retained: this reference holds it until the reference goes, and it is never replaced,
    /// so it lives through the call as long as the reference's owner does (the caller's `self`).
    @inline(__always)
    func withObject<Result>(_ body: (Object) -> Result) -> Result? {
        let bits = word.load(ordering: .acquiring)
        guard bits > Self.sealedEmpty else { return nil }
        return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef(body)
    }

    /// Whether an object is set: one atomic load.
    @inline(__always)
    var isSet: Bool { word.load(ordering: .acquiring) > Self.sealedEmpty }

    /// Whether the reference was sealed before any object was set.
    var isSealed: Bool { word.load(ordering: .acquiring) == Self.sealedEmpty }

    /// Sets `object` if the reference is empty (retaining it); of two racing calls one sets
    /// and the other is told which object won.
    func setIfEmpty(_ object: Object) -> SetOutcome {
        let bits = UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
        let (exchanged, original) = word.compareExchange(expected: Self.empty, desired: bits, ordering: .acquiringAndReleasing)
        if exchanged { return .set }
        Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        if original == Self.sealedEmpty { return .sealed }
        return .alreadySet(Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: original)!).takeUnretainedValue())
    }

    /// Seals the reference if it is empty, so that nothing is ever set; returns the object
    /// when one was set first (the reference keeps it), nil otherwise.
    func sealIfEmpty() -> Object? {
        if word.compareExchange(expected: Self.empty, desired: Self.sealedEmpty, ordering: .acquiringAndReleasing).exchanged {
            return nil
        }
        return object
    }
}

// The word is atomic; the object crosses threads, so it must be Sendable itself.
extension AtomicRetainedReference: Sendable where Object: Sendable {}
