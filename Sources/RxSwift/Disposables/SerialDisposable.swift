import Synchronization

/// Holds one disposable that can be replaced; replacing disposes the previous one.
public final class SerialDisposable: DisposeBase, Cancelable {
    private let lock = RxLock(())
    /// Guarded by `lock`.
    private var current: Disposable?
    /// Guarded by `lock`.
    private var disposed = false

    /// An empty serial disposable.
    public override init() {}

    /// `true` once disposed.
    public var isDisposed: Bool { lock.performLocked { disposed } }

    /// The current disposable. Setting it disposes the previous one; once the serial
    /// disposable is disposed, a new value is disposed at once.
    public var disposable: Disposable {
        get { lock.performLocked { current ?? Disposables.create() } }
        set {
            let (previous, disposeNew): (Disposable?, Bool) = lock.performLocked {
                if disposed { return (nil, true) }
                let previous = current
                current = newValue
                return (previous, false)
            }
            previous?.dispose()
            if disposeNew { newValue.dispose() }
        }
    }

    /// Disposes the current disposable and any later one.
    public func dispose() {
        let previous: Disposable? = lock.performLocked {
            if disposed { return nil }
            disposed = true
            let previous = current
            current = nil
            return previous
        }
        previous?.dispose()
    }
}
