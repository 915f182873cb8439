import Synchronization

/// Disposes the underlying disposable once it was disposed and every dependent disposable
/// handed out by `retain()` was disposed too.
public final class RefCountDisposable: DisposeBase, Cancelable {
    private let lock = RxLock(())
    /// Guarded by `lock`.
    private var disposable: Disposable?
    /// Guarded by `lock`.
    private var primaryDisposed = false
    /// Guarded by `lock`.
    private var count = 0

    /// Wraps `disposable`.
    public init(disposable: Disposable) {
        self.disposable = disposable
    }

    /// `true` once the underlying disposable was disposed.
    public var isDisposed: Bool {
        lock.performLocked { disposable == nil }
    }

    /// A dependent disposable; the underlying one stays alive until it is disposed.
    public func retain() -> Disposable {
        lock.performLocked {
            if disposable != nil {
                count += 1
            }
        }
        return RefCountInnerDisposable(self)
    }

    /// Disposes the primary reference.
    public func dispose() {
        let toDispose: Disposable? = lock.performLocked {
            guard let current = disposable, !primaryDisposed else { return nil }
            primaryDisposed = true
            if count == 0 {
                disposable = nil
                return current
            }
            return nil
        }
        toDispose?.dispose()
    }

    fileprivate func release() {
        let toDispose: Disposable? = lock.performLocked {
            guard let current = disposable else { return nil }
            guard count > 0 else { rxFatalError("RefCountDisposable released more than retained") }
            count -= 1
            if primaryDisposed && count == 0 {
                disposable = nil
                return current
            }
            return nil
        }
        toDispose?.dispose()
    }
}

private final class RefCountInnerDisposable: Disposable {
    private let parent: RefCountDisposable
    private let disposed = Atomic<Bool>(false)

    init(_ parent: RefCountDisposable) {
        self.parent = parent
    }

    func dispose() {
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) {
            parent.release()
        }
    }
}
