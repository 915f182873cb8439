import CRxResources

/// One inner subscription of a `flatMap`: forwards its events under the sink's lock and
/// holds its own subscription (set once, possibly after it was disposed).
///
/// A slot is made together with its observer (`make(parent:)`), whose closure context it is:
/// that observer owns the slot, and the sink lends it to every subscription that uses the
/// slot, so subscribing retains and releases nothing. A handler that keeps a copy of the
/// observer adds a reference; `isOwnedByObserverAlone` sees it.
@usableFromInline
final class FlatMapInner<SourceElement, SourceSequence: ObservableConvertibleType, Observer: ObserverType>: InnerSubscriptionSlot where Observer.Element == SourceSequence.Element {
    @usableFromInline
    typealias Parent = FlatMapSink<SourceElement, SourceSequence, Observer>
    /// A slot and the observer that owns it (the slot's only reference unless one was copied).
    @usableFromInline
    typealias Owned = (observer: AnyObserver<Observer.Element>, slot: Unmanaged<FlatMapInner>)

    /// Unretained, so a slot kept for reuse does not hold the sink that keeps it. It is alive
    /// whenever the slot uses it: only while the sink runs `subscribeGeneral` with this slot,
    /// or once `holdParent()` (called before that returns whenever the slot may be used later)
    /// made `parentHold` keep it. `ObservableFlatMapCreateInnerTests` cover each case.
    @usableFromInline
    let parentReference: Unmanaged<Parent>
    /// The sink, held once the slot may forward after its `subscribe` ended. Written by the
    /// source's events only, read by nothing but the slot's release.
    @usableFromInline
    @exclusivity(unchecked) var parentHold: Parent?

    @inlinable
    init(parent: Parent) {
        parentReference = Unmanaged.passUnretained(parent)
        super.init()
    }

    /// A new slot for `parent`, owned by the observer returned with it.
    @inlinable @inline(never)
    static func make(parent: Parent) -> Owned {
        let inner = FlatMapInner(parent: parent)
        let slot = Unmanaged.passUnretained(inner)
        return (AnyObserver(eventHandler: (consume inner).on), slot)
    }

    /// Subscribes `slot` to `source` with the observer that owns it. An `Observable.create`
    /// handler runs here, in the sink's code, and only the disposable it returns goes to the
    /// slot (`InnerSubscriptionSlot.subscribe` does the same for the other cases).
    @inlinable @inline(__always)
    static func subscribe(_ slot: Unmanaged<FlatMapInner>, _ source: Observable<Observer.Element>, _ observer: AnyObserver<Observer.Element>) {
        if type(of: source) == AnonymousObservable<Observer.Element>.self, !CurrentThreadScheduler.isScheduleRequired {
            let disposable = unsafeDowncast(source, to: AnonymousObservable<Observer.Element>.self).subscribeHandler(observer)
            slot._withUnsafeGuaranteedRef { $0.setDisposable(disposable) }
            return
        }
        slot._withUnsafeGuaranteedRef { $0.subscribe(source, observer) }
    }

    /// `true` if the observer that owns `slot` holds its only reference: no subscribe handler
    /// or sink kept a copy, so no other thread can reach the slot. (The count is read after
    /// any other holder's release, which orders its use of the slot before this.)
    @inlinable @inline(__always)
    static func isOwnedByObserverAlone(_ slot: Unmanaged<FlatMapInner>) -> Bool {
        // The observer's reference, lent to the check and handed back: no net retain.
        var lent = slot.takeRetainedValue()
        let alone = isKnownUniquelyReferenced(&lent)
        _ = Unmanaged.passRetained(consume lent)
        return alone
    }

    /// `true` during this slot's subscription, on the thread running it (set by
    /// `FlatMapSink.subscribeGeneral`): what its subscribe handler sends before returning.
    @inlinable @inline(__always)
    var isSubscribingHere: Bool {
        rx_subscribing_slot_get() == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// Keeps the sink alive for as long as this slot lives.
    @inlinable @inline(__always)
    func holdParent() {
        parentHold = parentReference.takeUnretainedValue()
    }

    /// Runs `body` with the sink, without retaining it (see `parentReference`).
    @inlinable @inline(__always)
    func withParent<Result>(_ body: (Parent) -> Result) -> Result {
        parentReference._withUnsafeGuaranteedRef(body)
    }

    @inlinable
    func on(_ event: Event<Observer.Element>) {
        switch event {
        case .next:
            if isStopped { return }
            withParent { parent in
                if parent.forwardsAlone(self) {
                    parent.forwardOn(event)
                } else {
                    parent.forwardLocked(event)
                }
            }
        case .error:
            guard Self.isLive(stop(disposing: false)) else { return }
            withParent { parent in
                parent.lock.performLocked {
                    parent.forwardOn(event)
                    parent.dispose()
                }
            }
            // The sink's `dispose()` reached this slot only if it had joined the group.
            dispose()
        case .completed:
            // Most handlers complete during their subscription: then no atomic.
            let previous = isSubscribingHere ? stopSubscribing(disposing: true) : stop(disposing: true)
            // Not yet grouped: `subscribeInner` sees the termination and does the rest.
            if Self.isLive(previous) && previous & Self.grouped != 0 {
                withParent { $0.innerCompleted(self) }
            }
        }
    }
}
