import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A subject that sends each event to the observers subscribed at that moment, as a
/// `PublishSubject` does, and keeps its first observer in itself: that observer's
/// subscription is the subject (its `dispose()` unsubscribes that observer), so a subject with
/// one observer, a session's input feeding its view model, is one object where a
/// `PublishSubject` and its subscription are two: 40 bytes in a 48-byte malloc block against
/// two 48-byte blocks (`InlinePublishSubjectTests`).
///
/// A second observer or a terminal event moves the observers to a `PublishSubject` (in a
/// `SharedObservers`), which sends every event from then on and tells late subscribers how it
/// ended. The inline place is used once, so a repeated `dispose()` of the first subscription
/// never unsubscribes a later observer. `dispose()` being that subscription's, the subject as
/// a whole is not disposable: a type for the library's own modules (`package`), not public API.
///
/// The first subscription holds the subject, so a graph that is never disposed keeps its
/// subjects (a session disposes its graph when it closes).
@usableFromInline
package final class InlinePublishSubject<Element>: Observable<Element>, ObserverType, Disposable {
    /// One word for the lock, a flag and the shared observers: bit 0 is the lock, bit 1 says
    /// the inline place was given, and the rest is the address of the `SharedObservers`
    /// (set once, retained by the word until `deinit`; objects are 16-byte aligned) or 0.
    /// A lock of its own (a `Mutex` and the flag took a word, the reference another) would
    /// make the subject 48 bytes, a 64-byte block.
    @usableFromInline
    let word = Atomic<UInt>(0)
    /// The first observer while it is subscribed and the observers are not shared. Guarded
    /// by the word's lock bit.
    @usableFromInline
    @exclusivity(unchecked) var first: ((Event<Element>) -> Void)?

    @usableFromInline
    static var lockedBit: UInt { 1 }
    @usableFromInline
    static var firstTakenBit: UInt { 2 }
    @usableFromInline
    static var flagBits: UInt { 3 }

    /// The subject the observers moved to (with the first observer's subscription to it, in the base).
    @usableFromInline
    final class SharedObservers: InlineSubjectSharedBase {
        @usableFromInline
        let subject = PublishSubject<Element>()

        @inlinable
        override init() {}
    }

    /// A subject with no observers.
    @inlinable
    package override init() {
        super.init()
    }

    /// Takes the lock bit and returns the word's other bits. It is held for a few
    /// instructions (no observer runs under it) and a subject's events come from one thread,
    /// so a waiter just yields.
    @inlinable
    func lock() -> UInt {
        var current = word.load(ordering: .relaxed)
        while true {
            if current & Self.lockedBit == 0 {
                let (exchanged, original) = word.compareExchange(expected: current, desired: current | Self.lockedBit,
                                                                 ordering: .acquiring)
                if exchanged { return current }
                current = original
            } else {
                sched_yield()
                current = word.load(ordering: .relaxed)
            }
        }
    }

    /// Releases the lock bit, leaving the word `value` (what `lock()` returned, or changed).
    @inlinable
    func unlock(_ value: UInt) {
        word.store(value, ordering: .releasing)
    }

    /// The shared observers that the word `value` holds, if any.
    @inlinable
    static func shared(in value: UInt) -> SharedObservers? {
        guard let address = UnsafeRawPointer(bitPattern: value & ~flagBits) else { return nil }
        return Unmanaged<SharedObservers>.fromOpaque(address).takeUnretainedValue()
    }

    /// Sends `event` to the current observers.
    @inlinable
    package func on(_ event: Event<Element>) {
        switch event {
        case .next:
            // Read under the lock, called outside it: an observer may feed the subject again.
            let value = lock()
            let handler = first
            unlock(value)
            handler?(event)
            // Set once and kept until `deinit`: no lock needed to use it.
            Self.shared(in: value)?.subject.on(event)
        case .error, .completed:
            var value = lock()
            let shared = share(&value)
            unlock(value)
            shared.subject.on(event)
        }
    }

    /// Subscribes `observer` to the events sent from now on (also what `subscribeErased`
    /// does by default).
    @inlinable
    package override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscribeHandler(observer.on) ?? Disposables.create()
    }

    @inlinable
    override func subscribeErasedObject(_ observer: AnyObserver<Element>) -> (AnyObject & Disposable)? {
        subscribeHandler(observer.observer)
    }

    /// The subscription: the subject itself for the first observer, else the shared subject's
    /// (`nil` when that subject had already ended and told the handler so).
    @inlinable
    func subscribeHandler(_ handler: @escaping (Event<Element>) -> Void) -> (AnyObject & Disposable)? {
        var value = lock()
        if value & Self.firstTakenBit == 0 {
            first = handler
            unlock(value | Self.firstTakenBit)
            Resources.add(1)
            return self
        }
        let shared = share(&value)
        unlock(value)
        return shared.subject.subscribeHandler(handler)
    }

    /// Moves the observers to a `SharedObservers`, the first one's subscription with them,
    /// and puts it in `value` (called holding the lock; the new subject has not ended, so
    /// subscribing calls no handler).
    @usableFromInline
    func share(_ value: inout UInt) -> SharedObservers {
        if let shared = Self.shared(in: value) { return shared }
        let made = SharedObservers()
        if let first {
            made.firstSubscription = made.subject.subscribeHandler(first)
            self.first = nil
            Resources.add(-1) // counted from now on as the shared subject's subscription
        }
        let address = UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
        assert(address & Self.flagBits == 0, "an object's address has free low bits")
        value = address | Self.firstTakenBit
        return made
    }

    /// Unsubscribes the first observer: the subscription it was given is the subject.
    /// Reached through `Disposable` in unspecialised code, so it names no type that depends on
    /// `Element` (each would be a metadata look-up per dispose).
    @usableFromInline
    package func dispose() {
        let value = lock()
        var handler = first
        first = nil
        let shared = InlineSubjectSharedBase.unretained(in: value & ~Self.flagBits)
        let subscription = shared?.firstSubscription
        shared?.firstSubscription = nil
        unlock(value)
        // Released after the lock: the release may free an observer whose teardown reaches
        // this subject.
        if case .some = handler {
            Resources.add(-1)
        }
        handler = nil
        subscription?.dispose()
    }

    deinit {
        if case .some = first {
            Resources.add(-1)
        }
        let value = word.load(ordering: .acquiring)
        InlineSubjectSharedBase.unretained(in: value & ~Self.flagBits).map { Unmanaged.passUnretained($0).release() }
    }
}

/// The part of an `InlinePublishSubject`'s shared observers that `dispose()` touches, in a
/// class that is not generic.
@usableFromInline
class InlineSubjectSharedBase {
    /// The first observer's subscription to the shared subject; guarded by the owner's lock bit.
    @usableFromInline
    @exclusivity(unchecked) final var firstSubscription: (AnyObject & Disposable)?

    @inlinable
    init() {}

    /// The object at `address` (0 for none), unretained: the owner's word holds it.
    @inlinable
    static func unretained(in address: UInt) -> InlineSubjectSharedBase? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged<InlineSubjectSharedBase>.fromOpaque($0).takeUnretainedValue() }
    }
}
