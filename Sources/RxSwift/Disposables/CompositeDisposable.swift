import Synchronization

/// A group of disposables disposed together.
public final class CompositeDisposable: DisposeBase, Cancelable {
    /// Key of a disposable added to the group, used to remove it.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private let lock = RxLock(())
    /// Guarded by `lock`; `nil` once disposed.
    private var disposables: [UInt64: Disposable]? = [:]
    /// Guarded by `lock`.
    private var nextKey: UInt64 = 0

    /// An empty group.
    public override init() {}

    /// A group holding `disposables`.
    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        disposables = [0: disposable1, 1: disposable2]
        nextKey = 2
    }

    /// A group holding `disposables`.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        disposables = [0: disposable1, 1: disposable2, 2: disposable3]
        nextKey = 3
    }

    /// A group holding the four (or more) disposables.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        self.init(disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
    }

    /// A group holding `disposables`.
    public init(disposables: [Disposable]) {
        var table: [UInt64: Disposable] = [:]
        for (index, disposable) in disposables.enumerated() {
            table[UInt64(index)] = disposable
        }
        self.disposables = table
        nextKey = UInt64(disposables.count)
    }

    /// Adds `disposable`. If the group is already disposed, disposes it at once and returns `nil`.
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key: DisposeKey? = lock.performLocked {
            guard disposables != nil else { return nil }
            let key = nextKey
            nextKey += 1
            disposables![key] = disposable
            return DisposeKey(value: key)
        }
        if key == nil {
            disposable.dispose()
        }
        return key
    }

    /// The number of disposables in the group.
    public var count: Int {
        lock.performLocked { disposables?.count ?? 0 }
    }

    /// Removes the disposable with `disposeKey` and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        let removed: Disposable? = lock.performLocked {
            disposables?.removeValue(forKey: disposeKey.value)
        }
        removed?.dispose()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        lock.performLocked { disposables == nil }
    }

    /// Disposes every disposable of the group, and each one added later.
    public func dispose() {
        let all: [UInt64: Disposable]? = lock.performLocked {
            let all = disposables
            disposables = nil
            return all
        }
        guard let all else { return }
        for key in all.keys.sorted() {
            all[key]!.dispose()
        }
    }
}
