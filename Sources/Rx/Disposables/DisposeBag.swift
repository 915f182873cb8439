import Synchronization

/// Collects disposables and disposes them all when the bag is deallocated.
///
/// Adding to a bag that is being deallocated disposes the disposable immediately.
public final class DisposeBag {
    private let lock = RxLock(())
    /// Guarded by `lock`.
    private var disposables: [Disposable] = []
    /// Guarded by `lock`.
    private var isDisposed = false

    /// An empty bag.
    public init() {}

    /// Adds `disposable`, disposed with the bag.
    public func insert(_ disposable: Disposable) {
        let disposeNow = lock.performLocked { () -> Bool in
            if isDisposed { return true }
            disposables.append(disposable)
            return false
        }
        if disposeNow {
            disposable.dispose()
        }
    }

    private func dispose() {
        var toDispose: [Disposable] = []
        lock.performLocked {
            toDispose = disposables
            disposables.removeAll(keepingCapacity: false)
            isDisposed = true
        }
        for disposable in toDispose {
            disposable.dispose()
        }
    }

    deinit {
        dispose()
    }
}

extension DisposeBag {
    /// A bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init()
        for disposable in disposables { insert(disposable) }
    }

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        for disposable in disposables { insert(disposable) }
    }

    /// Adds `disposables`.
    public func insert(_ disposables: Disposable...) {
        for disposable in disposables { insert(disposable) }
    }
}

extension Disposable {
    /// Adds `self` to `bag`.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
