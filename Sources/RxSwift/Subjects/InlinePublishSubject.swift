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
/// The second observer goes to a second `InlinePublishSubject` made for it (the link), whose
/// own later observers go to a `PublishSubject`: a login's text input, which the example's
/// `combineLatest` observes twice, takes one object more where a `PublishSubject` and its
/// subscription took two. Later observers get every event after the first one, in the order
/// they subscribed; from a terminal event on, a `PublishSubject` at the end tells late
/// subscribers how the subject ended. Each inline place is used once, so a repeated
/// `dispose()` of its subscription never unsubscribes a later observer, and resubscribing
/// observers (`retry`) come and go in the `PublishSubject`, not in new links. `dispose()`
/// being the first subscription's, the subject as a whole is not disposable: a type for the
/// library's own modules (`package`), not public API.
///
/// The first subscription holds the subject, so a graph that is never disposed keeps its
/// subjects (a session disposes its graph when it closes).
@usableFromInline
package final class InlinePublishSubject<Element>: Observable<Element>, ObserverType, Disposable {
    /// One word for the lock, three flags and the later observers: bit 0 is the lock, bit 1
    /// says the inline place was given, bit 2 that the later observers' subject is a link (an
    /// `InlinePublishSubject`, else a `PublishSubject`), bit 3 that this subject is a link
    /// itself, and the rest is that subject's address (set once, retained by the word until
    /// `deinit`; objects are 16-byte aligned) or 0. A `Mutex` and the flag took a word and
    /// the reference another: 48 bytes, a 64-byte block.
    @usableFromInline
    let word = Atomic<UInt>(0)
    /// The first observer while it is subscribed and the subject has not ended. Guarded by
    /// the word's lock bit.
    @usableFromInline
    @exclusivity(unchecked) var first: ((Event<Element>) -> Void)?

    @usableFromInline
    static var lockedBit: UInt { 1 }
    @usableFromInline
    static var firstTakenBit: UInt { 2 }
    @usableFromInline
    static var linkBit: UInt { 4 }
    /// Set in a link's own word: its later observers go to a `PublishSubject`, never to a
    /// link of its own.
    @usableFromInline
    static var isLinkBit: UInt { 8 }
    @usableFromInline
    static var flagBits: UInt { 15 }

    /// A subject with no observers.
    @inlinable
    package override init() {
        super.init()
    }

    /// A link: the second observer's place of a subject.
    @inlinable
    init(asLink: Void) {
        word.store(Self.isLinkBit, ordering: .relaxed)
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

    /// The link the word `value` holds, if it holds one. Set once and kept until `deinit`, so
    /// it may be used after the lock is released.
    @inlinable
    static func link(in value: UInt) -> InlinePublishSubject<Element>? {
        guard value & linkBit != 0, let address = UnsafeRawPointer(bitPattern: value & ~flagBits) else { return nil }
        return Unmanaged<InlinePublishSubject<Element>>.fromOpaque(address).takeUnretainedValue()
    }

    /// The `PublishSubject` the word `value` holds, if it holds one (as `link(in:)`).
    @inlinable
    static func others(in value: UInt) -> PublishSubject<Element>? {
        guard value & linkBit == 0, let address = UnsafeRawPointer(bitPattern: value & ~flagBits) else { return nil }
        return Unmanaged<PublishSubject<Element>>.fromOpaque(address).takeUnretainedValue()
    }

    /// Puts `made` in `value` as the later observers' subject (called holding the lock, with
    /// none there yet), marking the inline place given.
    @inlinable
    static func keep(_ made: AnyObject, asLink: Bool, in value: inout UInt) {
        let address = UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
        assert(address & flagBits == 0, "an object's address has free low bits")
        value = address | (value & isLinkBit) | firstTakenBit | (asLink ? linkBit : 0)
    }

    /// A `PublishSubject` made and kept in `value` for the later observers (as `keep`).
    /// Inlined into the specialised callers: made in unspecialised code, its type would be
    /// looked up each time.
    @inlinable
    static func keepPublishSubject(in value: inout UInt) -> PublishSubject<Element> {
        let made = PublishSubject<Element>()
        keep(made, asLink: false, in: &value)
        return made
    }

    /// Sends `event` to the current observers.
    @inlinable
    package func on(_ event: Event<Element>) {
        switch event {
        case .next:
            deliverNext(event)
        case .error, .completed:
            // The first observer is let go; the link passes the ending on, and the
            // `PublishSubject` at the end keeps it for late subscribers (made here if none is).
            var value = lock()
            let handler = first
            first = nil
            let link = Self.link(in: value)
            var others = Self.others(in: value)
            if link == nil && others == nil { others = Self.keepPublishSubject(in: &value) }
            unlock(value)
            if let handler {
                Resources.add(-1)
                handler(event)
            }
            link?.on(event)
            others?.on(event)
        }
    }

    /// Sends `element` to the current observers as `on(.next(element))` does, taking it: the
    /// event made here is the one they borrow, where a borrowed event was copied once more (a
    /// retain and a release per message for a `String`).
    @inlinable
    package func sendNext(_ element: consuming Element) {
        deliverNext(.next(element))
    }

    /// Sends the element `event` to the first observer and the later ones. The observer is
    /// read under the lock and called outside it: an observer may feed the subject again.
    @inlinable @inline(__always)
    func deliverNext(_ event: Event<Element>) {
        let value = lock()
        let handler = first
        unlock(value)
        if let handler = consume handler { handler(event) }
        guard value & ~Self.flagBits != 0 else { return }
        if let link = Self.link(in: value) {
            link.on(event)
        } else {
            Self.others(in: value)?.on(event)
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

    /// The subscription: the subject itself for the first observer, the link for the second
    /// (made for it), else one to the link's `PublishSubject` (`nil` when the subject had
    /// already ended and told the handler so).
    @inlinable
    func subscribeHandler(_ handler: @escaping (Event<Element>) -> Void) -> (AnyObject & Disposable)? {
        var value = lock()
        if value & Self.firstTakenBit == 0 {
            first = handler
            unlock(value | Self.firstTakenBit)
            Resources.add(1)
            return self
        }
        var link = Self.link(in: value)
        var others = Self.others(in: value)
        if link == nil && others == nil {
            if value & Self.isLinkBit == 0 {
                let made = InlinePublishSubject<Element>(asLink: ())
                Self.keep(made, asLink: true, in: &value)
                link = made
            } else {
                others = Self.keepPublishSubject(in: &value)
            }
        }
        unlock(value)
        if let link { return link.subscribeHandler(handler) }
        return others?.subscribeHandler(handler)
    }

    /// Unsubscribes the first observer: the subscription it was given is the subject.
    /// Reached through `Disposable` in unspecialised code, so it names no type that depends on
    /// `Element` (each would be a metadata look-up per dispose).
    @usableFromInline
    package func dispose() {
        let value = lock()
        var handler = first
        first = nil
        unlock(value)
        // Released after the lock: the release may free an observer whose teardown reaches
        // this subject.
        if case .some = handler {
            Resources.add(-1)
        }
        handler = nil
    }

    deinit {
        if case .some = first {
            Resources.add(-1)
        }
        let value = word.load(ordering: .acquiring)
        if let address = UnsafeRawPointer(bitPattern: value & ~Self.flagBits) {
            Unmanaged<AnyObject>.fromOpaque(address).release()
        }
    }
}
