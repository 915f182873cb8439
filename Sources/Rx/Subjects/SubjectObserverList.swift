import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The observers of a subject, stored as `AnyObject` so that the subject's generic class
/// needs no type metadata to copy or destroy them (generic containers of generic types cost
/// a metadata look-up each time unspecialised code touches them). The first observer lives
/// inline and the array exists only once a second observer came, so an empty or
/// one-observer list costs no array and no reference counting of the empty one.
@usableFromInline
struct SubjectObserverList {
    @usableFromInline
    var first: AnyObject?
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
        if first == nil && (rest?.isEmpty ?? true) {
            first = observer
        } else if rest == nil {
            rest = [observer]
        } else {
            rest!.append(observer)
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
/// so `owner` is `unowned(unsafe)`, made safe by `state`: `dispose()` claims the subscription
/// (live → leaving) before it calls into the subject and marks it left after; a subject that
/// lets subscriptions go (terminal event, `dispose()`, deinit) detaches each of them outside
/// its lock: live → left, or it waits while a dispose that claimed it is still inside the
/// subject. So no subscription touches its subject once the subject has let it go.
@usableFromInline
class SubjectSubscriptionBase: Disposable {
    @usableFromInline
    static var live: UInt8 { 0 }
    @usableFromInline
    static var leaving: UInt8 { 1 }
    @usableFromInline
    static var left: UInt8 { 2 }

    @usableFromInline
    unowned(unsafe) let owner: SubjectSubscriptionOwner
    @usableFromInline
    let state = Atomic<UInt8>(0)

    @inlinable
    init(owner: SubjectSubscriptionOwner) {
        self.owner = owner
    }

    @inlinable
    final func dispose() {
        guard state.compareExchange(expected: Self.live, desired: Self.leaving, ordering: .acquiring).exchanged else {
            return
        }
        owner.unsubscribe(self)
        state.store(Self.left, ordering: .releasing)
    }

    /// The subject has let this subscription go: after this returns, `dispose()` no longer
    /// touches the subject. Called outside the subject's lock, which a dispose in progress
    /// needs to finish.
    @inlinable
    final func detach() {
        if state.compareExchange(expected: Self.live, desired: Self.left, ordering: .acquiringAndReleasing).exchanged {
            return
        }
        while state.load(ordering: .acquiring) == Self.leaving {
            sched_yield()
        }
    }
}

/// One observer of a subject and its subscription.
@usableFromInline
final class SubjectSubscription<Element>: SubjectSubscriptionBase {
    @usableFromInline
    let handler: (Event<Element>) -> Void

    @inlinable
    init(handler: @escaping (Event<Element>) -> Void, owner: SubjectSubscriptionOwner) {
        self.handler = handler
        super.init(owner: owner)
    }
}

/// A subject that can remove a subscription.
@usableFromInline
protocol SubjectSubscriptionOwner: AnyObject {
    func unsubscribe(_ subscription: AnyObject)
}

/// Sends `event` to every subscription of a snapshot of a list.
@inlinable
func dispatch<Element>(first: AnyObject?, rest: ContiguousArray<AnyObject>?, _ event: Event<Element>) {
    if let first {
        unsafeDowncast(first, to: SubjectSubscription<Element>.self).handler(event)
    }
    if let rest {
        for observer in rest {
            unsafeDowncast(observer, to: SubjectSubscription<Element>.self).handler(event)
        }
    }
}
