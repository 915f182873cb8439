import Synchronization

/// The disposable slot of one inner subscription of a `flatMap`-family operator: holds the
/// inner subscription, which is set once and possibly only after the slot was disposed
/// (a synchronous inner sequence terminates during its own subscription).
///
/// It also records the inner sequence's first terminal event, so that events after it are
/// dropped: when `subscribe(_:_:)` runs an `Observable.create` subscribe handler with this
/// slot as its observer, the slot stands in for that sequence's own sink.
///
/// A base class rather than a stored helper so each inner subscription stays one allocation;
/// its members are `final` and `@inlinable` so the hot path specialises across modules.
@usableFromInline
class InnerSubscriptionSlot: Disposable {
    @usableFromInline
    final let state = Atomic<Int>(0)
    /// Written before `assigned` is published; taken by whoever sees both flags first. A class
    /// reference (`disposableObject(_:)`): moving and dropping it are a retain and a release,
    /// not calls through the `Disposable?` existential's value witnesses.
    @usableFromInline
    @exclusivity(unchecked) final var disposable: (AnyObject & Disposable)?

    @usableFromInline
    static var assigned: Int { 1 }
    @usableFromInline
    static var disposed: Int { 2 }
    /// The inner sequence sent its terminal event.
    @usableFromInline
    static var stopped: Int { 4 }
    /// The operator keeps the slot in its group, so its terminal event must leave the group.
    @usableFromInline
    static var grouped: Int { 8 }

    @inlinable
    init() {}

    /// Keeps `disposable` until `dispose()`, or disposes it at once if that already ran.
    @inlinable @inline(__always)
    final func setDisposable(_ disposable: Disposable) {
        setDisposable(object: disposableObject(disposable))
    }

    /// `setDisposable(_:)` for a subscription already a class reference (nil: nothing to
    /// dispose, as for a `NopDisposable`).
    @inlinable @inline(__always)
    final func setDisposable(object disposable: (AnyObject & Disposable)?) {
        if state.load(ordering: .acquiring) & Self.disposed != 0 {
            // Already terminated (a synchronous inner sequence): nothing to keep.
            disposable?.dispose()
            return
        }
        self.disposable = disposable
        let previous = state.bitwiseOr(Self.assigned, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposed != 0 {
            self.disposable = nil
            disposable?.dispose()
        }
    }

    @inlinable
    final func dispose() {
        disposeHeld(previous: state.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue)
    }

    /// `true` once the inner sequence terminated or the slot was disposed: its events are dropped.
    @inlinable
    final var isStopped: Bool {
        state.load(ordering: .relaxed) & (Self.stopped | Self.disposed) != 0
    }

    /// Records a terminal event of the inner sequence, disposing the slot too if `disposing`.
    ///
    /// - returns: The state before; the event is the one to handle if `isLive(previous)`.
    @inlinable
    final func stop(disposing: Bool) -> Int {
        let bits = disposing ? Self.stopped | Self.disposed : Self.stopped
        let previous = state.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue
        if disposing {
            disposeHeld(previous: previous)
        }
        return previous
    }

    /// `stop(disposing:)` for an event sent on the thread running the slot's subscription,
    /// before it returned: a load and a store instead of a read-modify-write (on x86 a bus
    /// lock). The slot is neither `assigned` (`setDisposable` comes after the subscription)
    /// nor `grouped` yet, so there is nothing to dispose, and another thread (sending through
    /// a kept observer) can meanwhile set only `stopped` and `disposed`, which this sets too:
    /// its store loses nothing. Both may then see a live `previous`; a terminal event of a
    /// slot not yet grouped has no effect beyond these bits, while one on the other thread
    /// does its own (an error is forwarded once, by that thread).
    @inlinable @inline(__always)
    final func stopSubscribing(disposing: Bool) -> Int {
        let bits = disposing ? Self.stopped | Self.disposed : Self.stopped
        let previous = state.load(ordering: .relaxed)
        assert(previous & (Self.assigned | Self.grouped) == 0, "stopSubscribing after the subscription")
        state.store(previous | bits, ordering: .relaxed)
        return previous
    }

    /// `true` if `state` shows neither a terminal event nor disposal.
    @inlinable @inline(__always)
    static func isLive(_ state: Int) -> Bool {
        state & (stopped | disposed) == 0
    }

    /// `true` once the inner sequence sent its terminal event (read after its subscription
    /// returned, ordered after that event's handling).
    @inlinable
    final var hasTerminated: Bool {
        state.load(ordering: .acquiring) & Self.stopped != 0
    }

    /// `true` if the inner sequence terminated before its subscription was kept or grouped:
    /// then `reset()` makes the slot as new (for the caller holding its only reference).
    @inlinable
    final var isReusable: Bool {
        state.load(ordering: .relaxed) & (Self.assigned | Self.grouped) == 0
    }

    @inlinable
    final func reset() {
        state.store(0, ordering: .relaxed)
    }

    /// Marks the slot as kept in its operator's group (`flatMap`); returns `false` if the
    /// inner sequence had already terminated, in which case its terminal event left the
    /// group to whoever set this mark.
    @inlinable
    final func markGrouped() -> Bool {
        state.bitwiseOr(Self.grouped, ordering: .acquiringAndReleasing).oldValue & Self.stopped == 0
    }

    /// Disposes the held subscription if `previous`, the state before `disposed` was set,
    /// shows it assigned and not yet disposed.
    @inlinable @inline(__always)
    final func disposeHeld(previous: Int) {
        if previous & Self.disposed == 0 && previous & Self.assigned != 0 {
            let disposable = self.disposable
            self.disposable = nil
            disposable?.dispose()
        }
    }

    /// Subscribes `observer` (this slot's event handler) to `source`, keeping the subscription.
    ///
    /// An `Observable.create` sequence is subscribed by running its subscribe handler with
    /// `observer` directly: this slot then does what that sequence's sink would (drop events
    /// after the first terminal one, dispose the handler's disposable on termination or
    /// disposal), without allocating the sink and its disposer. The handler runs on a
    /// `CurrentThreadScheduler` trampoline as a producer's subscription would.
    @inlinable @inline(__always)
    final func subscribe<Element>(_ source: Observable<Element>, _ observer: AnyObserver<Element>) {
        if type(of: source) == AnonymousObservable<Element>.self {
            let handler = unsafeDowncast(source, to: AnonymousObservable<Element>.self).subscribeHandler
            if !CurrentThreadScheduler.isScheduleRequired {
                setDisposable(handler(observer))
            } else {
                subscribeOnTrampoline(handler, observer)
            }
            return
        }
        // The object form: a producer subscribed off a trampoline runs on a new one in place,
        // where `subscribeErased` would schedule a closure on it (one allocation and a queue
        // visit more per inner subscription; a login tap's request).
        setDisposable(object: source.subscribeErasedObject(observer))
    }

    /// `subscribe`'s handler run on a new trampoline; out of line, so that the common path
    /// does not retain the observer a second time for this path's closure.
    @inlinable @inline(never)
    final func subscribeOnTrampoline<Element>(_ handler: @escaping (AnyObserver<Element>) -> Disposable, _ observer: AnyObserver<Element>) {
        setDisposable(CurrentThreadScheduler.instance.schedule(()) { _ in handler(observer) })
    }
}
