import Synchronization

/// Holds one disposable set once; disposing before the assignment disposes it on assignment.
public final class SingleAssignmentDisposable: DisposeBase, Cancelable {
    private static let assigned = 1
    private static let disposed = 2

    private let state = Atomic<Int>(0)
    /// Written once before `assigned` is published; read by the disposing thread after.
    @exclusivity(unchecked) private var disposable: Disposable?

    /// An unassigned disposable.
    public override init() {}

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposed != 0
    }

    /// Sets the disposable. Stops the program when called twice.
    public func setDisposable(_ disposable: Disposable) {
        self.disposable = disposable
        let previous = state.bitwiseOr(Self.assigned, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.assigned != 0 {
            rxFatalError("oldState.disposable != nil")
        }
        if previous & Self.disposed != 0 {
            disposable.dispose()
            self.disposable = nil
        }
    }

    /// Disposes the assigned disposable, now or when it is set.
    public func dispose() {
        let previous = state.bitwiseOr(Self.disposed, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposed != 0 { return }
        if previous & Self.assigned != 0 {
            let disposable = self.disposable
            self.disposable = nil
            disposable?.dispose()
        }
    }
}
