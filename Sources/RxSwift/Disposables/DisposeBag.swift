import Synchronization

/// Collects disposables and disposes them all when the bag is deallocated.
///
/// Adding to a bag that is being deallocated disposes the disposable immediately.
public final class DisposeBag: DisposeBase {
    private let lock = RxLock(())
    /// Guarded by `lock`.
    private var disposables: [Disposable] = []
    /// Guarded by `lock`.
    private var isDisposed = false

    /// An empty bag.
    public override init() {}

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
        insert(disposables)
    }

    /// A bag holding the disposables `builder` lists, one per line:
    /// `DisposeBag { a.subscribe(); b.bind(to: c) }`.
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds `disposables`.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds the disposables `builder` lists, one per line: `bag.insert { a; b }`.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Adds `disposables`.
    public func insert(_ disposables: [Disposable]) {
        for disposable in disposables { insert(disposable) }
    }

    /// Collects the disposables of a `DisposeBag { ... }` or `insert { ... }` block into an array.
    @resultBuilder
    public struct DisposableBuilder {
        /// The block's disposables, in order.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
    }
}

extension Disposable {
    /// Adds `self` to `bag`.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }

    /// RxSwift 3 name of `disposed(by:)`.
    @available(*, deprecated, message: "use disposed(by:) instead", renamed: "disposed(by:)")
    public func addDisposableTo(_ bag: DisposeBag) {
        disposed(by: bag)
    }
}
