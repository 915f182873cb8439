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
}

/// One observer of a subject and its subscription: disposing it removes it from the subject.
@usableFromInline
final class SubjectSubscription<Element>: Disposable {
    @usableFromInline
    let handler: (Event<Element>) -> Void
    /// Weak: the subject's list holds the subscription, so a strong reference back would keep
    /// a forgotten subject alive; a subject released with observers still registered
    /// uncounts them in its deinit.
    @usableFromInline
    weak var owner: SubjectSubscriptionOwner?

    @inlinable
    init(handler: @escaping (Event<Element>) -> Void, owner: SubjectSubscriptionOwner) {
        self.handler = handler
        self.owner = owner
    }

    @inlinable
    func dispose() {
        owner?.unsubscribe(self)
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
