#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The observers of a subject, stored as `AnyObject` so that the subject's generic class
/// needs no type metadata to copy or destroy them (generic containers of generic types cost
/// a metadata look-up each time unspecialised code touches them). A lone observer lives
/// inline in `first`, so an empty or one-observer list costs no array; from the second one
/// on, all of them live in `rest` (and `first` is nil), so that a snapshot for sending an
/// event retains one object whatever the count.
@usableFromInline
struct SubjectObserverList {
    /// The observer while the list has never held two at once; nil from then on.
    @usableFromInline
    var first: AnyObject?
    /// Every observer, in subscription order, once two were subscribed at the same time.
    @usableFromInline
    var rest: ContiguousArray<AnyObject>?

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { first == nil && (rest?.isEmpty ?? true) }

    @inlinable
    var count: Int { (first == nil ? 0 : 1) + (rest?.count ?? 0) }

    /// Appends `observer` (insertion order is delivery order).
    @inlinable
    mutating func insert(_ observer: AnyObject) {
        if rest != nil {
            rest!.append(observer)
        } else if let lone = first {
            first = nil
            rest = [lone, observer]
        } else {
            first = observer
        }
    }

    /// Removes `observer`; returns whether it was there.
    @inlinable
    mutating func remove(_ observer: AnyObject) -> Bool {
        if let first, first === observer {
            self.first = nil
            return true
        }
        if let index = rest?.firstIndex(where: { $0 === observer }) {
            rest!.remove(at: index)
            return true
        }
        return false
    }

    @inlinable
    mutating func removeAll() {
        first = nil
        rest = nil
    }

    /// Takes every observer out, leaving the list empty.
    @inlinable
    mutating func takeAll() -> SubjectObserverList {
        var taken = SubjectObserverList()
        swap(&self, &taken)
        return taken
    }

    /// Detaches every subscription of a list of `SubjectSubscription`s the subject has taken
    /// out of its own, and uncounts them from `Resources`; called outside the subject's lock.
    @inlinable
    func detachAll() {
        Resources.add(-count)
        if let first {
            unsafeDowncast(first, to: SubjectSubscriptionBase.self).detach()
        }
        if let rest {
            for subscription in rest {
                unsafeDowncast(subscription, to: SubjectSubscriptionBase.self).detach()
            }
        }
    }
}

/// A subscription to a subject; disposing it removes its observer from the subject.
///
/// It must not keep its subject alive (a forgotten subject is released with its observers,
/// as RxSwift's are), and a weak reference would give every subject a side-table allocation,
/// so the subject is held unowned and unsafe, made safe by a state: `dispose()` claims the
/// subscription (live → leaving) before it calls into the subject and marks it left after; a
/// subject that lets subscriptions go (terminal event, `dispose()`, deinit) detaches each of
/// them outside its lock: live → left, or it waits while a dispose that claimed it is still
/// inside the subject. So no subscription touches its subject once the subject has let it go.
///
/// The subject's address and the state share one atomic word (`AtomicTaggedAddress`), and
/// the subject's type is a generic parameter of the concrete class rather than a protocol
/// existential: with its handler the object is 40 bytes, a 48-byte malloc block
/// (`SubjectLayoutTests`), and a session holds one per input.
@usableFromInline
class SubjectSubscriptionBase {
    @usableFromInline
    static var live: UInt { 0 }
    @usableFromInline
    static var leaving: UInt { 1 }
    @usableFromInline
    static var left: UInt { 2 }

    /// The subject's address, tagged with the state.
    @usableFromInline
    let owner: AtomicTaggedAddress

    @inlinable
    init(owner: AnyObject) {
        self.owner = AtomicTaggedAddress(owner, tag: Self.live)
    }

    /// Removes this subscription from the subject at `address`; overridden by the subject's
    /// own subscription class, which knows the subject's type.
    @usableFromInline
    func unsubscribe(fromOwnerAt address: UnsafeRawPointer) {
        preconditionFailure("SubjectSubscriptionBase.unsubscribe(fromOwnerAt:) must be overridden")
    }

    @inlinable
    final func dispose() {
        guard let address = owner.addressReplacingTag(Self.live, with: Self.leaving) else {
            return
        }
        unsubscribe(fromOwnerAt: address)
        owner.storeTag(Self.left, address: address)
    }

    /// The subject has let this subscription go: after this returns, `dispose()` no longer
    /// touches the subject. Called outside the subject's lock, which a dispose in progress
    /// needs to finish.
    @inlinable
    final func detach() {
        if owner.replaceTag(Self.live, with: Self.left) {
            return
        }
        while owner.tag == Self.leaving {
            sched_yield()
        }
    }
}

/// One observer of a subject and its subscription; the subject delivers through `handler`.
@usableFromInline
class SubjectSubscription<Element>: SubjectSubscriptionBase, Disposable {
    @usableFromInline
    final let handler: (Event<Element>) -> Void

    @inlinable
    init(handler: @escaping (Event<Element>) -> Void, owner: AnyObject) {
        self.handler = handler
        super.init(owner: owner)
    }
}

/// The subscription class of subjects of type `Owner`.
@usableFromInline
final class OwnedSubjectSubscription<Owner: SubjectSubscriptionOwner, Element>: SubjectSubscription<Element> {
    @inlinable
    init(handler: @escaping (Event<Element>) -> Void, owner: Owner) {
        super.init(handler: handler, owner: owner)
    }

    @inlinable
    override func unsubscribe(fromOwnerAt address: UnsafeRawPointer) {
        Unmanaged<Owner>.fromOpaque(address).takeUnretainedValue().unsubscribe(self)
    }
}

/// A subject that can remove a subscription.
@usableFromInline
protocol SubjectSubscriptionOwner: AnyObject {
    func unsubscribe(_ subscription: AnyObject)
}

/// Sends `event` to every subscription of a snapshot of a list.
///
/// The caller's snapshot (`first` and the `rest` array) keeps each subscription alive, and a
/// subscription keeps its `let` handler alive, so each observer is reached through unretained
/// references: no reference-count operation per observer (they are atomic, and were most of a
/// subject's cost per event).
@inlinable
func dispatch<Element>(first: AnyObject?, rest: ContiguousArray<AnyObject>?, _ event: Event<Element>) {
    // Read through memory like the array's elements (from a value, the optimiser retains it).
    withUnsafePointer(to: first) { pointer in
        pointer.withMemoryRebound(to: Unmanaged<AnyObject>?.self, capacity: 1) { unretained in
            if let first = unretained.pointee {
                deliver(event, to: first)
            }
        }
    }
    guard let rest else { return }
    rest.withUnsafeBufferPointer { observers in
        // An `AnyObject` element is one strong reference, laid out as `Unmanaged<AnyObject>`.
        observers.withMemoryRebound(to: Unmanaged<AnyObject>.self) { unretained in
            for observer in unretained {
                deliver(event, to: observer)
            }
        }
    }
}

/// Calls the handler of a subscription the caller keeps alive.
@inlinable
func deliver<Element>(_ event: Event<Element>, to observer: Unmanaged<AnyObject>) {
    observer._withUnsafeGuaranteedRef { subscription in
        unsafeDowncast(subscription, to: SubjectSubscription<Element>.self).handler(event)
    }
}
