import Synchronization

/// The disposable slot of one inner subscription of a `flatMap`-family operator: holds the
/// inner subscription, which is set once and possibly only after the slot was disposed
/// (a synchronous inner sequence terminates during its own subscription).
///
/// A base class rather than a stored helper so each inner subscription stays one allocation;
/// its members are `final` and `@inlinable` so the hot path specialises across modules.
@usableFromInline
class InnerSubscriptionSlot: Disposable {
    @usableFromInline
    final let state = Atomic<Int>(0)
    /// Written before `assigned` is published; taken by whoever sees both flags first.
    @usableFromInline
    @exclusivity(unchecked) final var disposable: Disposable?

    @usableFromInline
    static var assigned: Int { 1 }
    @usableFromInline
    static var disposed: Int { 2 }

    @inlinable
    init() {}

    /// Keeps `disposable` until `dispose()`, or disposes it at once if that already ran.
    @inlinable
    final func setDisposable(_ disposable: Disposable) {
        if state.load(ordering: .acquiring) & Self.disposed != 0 {
            // Already terminated (a synchronous inner sequence): nothing to keep.
            disposable.dispose()
            return
        }
        self.disposable = disposable
        let previous = state.bitwiseOr(Self.assigned, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposed != 0 {
            self.disposable = nil
            disposable.dispose()
        }
    }

    @inlinable
    final func dispose() {
        let previous = state.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposed == 0 && previous & Self.assigned != 0 {
            let disposable = self.disposable
            self.disposable = nil
            disposable?.dispose()
        }
    }
}
