import Synchronization

/// A disposable that only records that it was disposed.
public final class BooleanDisposable: Cancelable, Sendable {
    /// A disposable already disposed.
    public static let BooleanDisposableTrue = BooleanDisposable(isDisposed: true)

    private let disposed: Atomic<Bool>

    /// A disposable not yet disposed.
    public init() {
        disposed = Atomic(false)
    }

    /// A disposable with the given state.
    public init(isDisposed: Bool) {
        disposed = Atomic(isDisposed)
    }

    /// `true` once disposed.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Marks the disposable disposed.
    public func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
