import Synchronization

/// A group of disposables disposed together, in the order they joined it.
public final class CompositeDisposable: DisposeBase, Cancelable {
    /// Key of a disposable added to the group, used to remove it.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    /// A member and its key.
    private struct Member {
        let key: UInt64
        let disposable: Disposable
    }

    /// The members. Most groups are small (an operator's source and its few inner
    /// subscriptions, a session's outputs): those are an array in key order (keys only grow,
    /// so appending keeps it sorted), where a dictionary cost each group an allocation and a
    /// resize or two and each member a hash. Past `arrayLimit` members they move to a
    /// dictionary, so that removing one of many stays O(1).
    private enum Members {
        case few(ContiguousArray<Member>)
        case many([UInt64: Disposable])
    }

    private static var arrayLimit: Int { 16 }

    private let lock = RxLock(())
    /// Guarded by `lock`; `nil` once disposed.
    private var members: Members? = .few([])
    /// Guarded by `lock`.
    private var nextKey: UInt64 = 0

    /// An empty group.
    public override init() {}

    /// A group holding `disposables`.
    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        members = .few([Member(key: 0, disposable: disposable1), Member(key: 1, disposable: disposable2)])
        nextKey = 2
    }

    /// A group holding `disposables`.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        members = .few([Member(key: 0, disposable: disposable1), Member(key: 1, disposable: disposable2),
                        Member(key: 2, disposable: disposable3)])
        nextKey = 3
    }

    /// A group holding the four (or more) disposables.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        self.init(disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
    }

    /// A group holding `disposables`.
    public init(disposables: [Disposable]) {
        if disposables.count <= Self.arrayLimit {
            var few = ContiguousArray<Member>()
            few.reserveCapacity(disposables.count)
            for (index, disposable) in disposables.enumerated() {
                few.append(Member(key: UInt64(index), disposable: disposable))
            }
            members = .few(few)
        } else {
            var table: [UInt64: Disposable] = [:]
            table.reserveCapacity(disposables.count)
            for (index, disposable) in disposables.enumerated() {
                table[UInt64(index)] = disposable
            }
            members = .many(table)
        }
        nextKey = UInt64(disposables.count)
    }

    /// Adds `disposable`. If the group is already disposed, disposes it at once and returns `nil`.
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key: DisposeKey? = lock.performLocked {
            // Taken out while changed, so that the array or dictionary is not shared (no copy).
            guard let taken = members.take() else { return nil }
            let key = nextKey
            nextKey += 1
            switch taken {
            case .few(var few) where few.count < Self.arrayLimit:
                if few.capacity == 0 { few.reserveCapacity(4) }
                few.append(Member(key: key, disposable: disposable))
                members = .few(few)
            case .few(let few):
                var table = [UInt64: Disposable](minimumCapacity: few.count * 2)
                for member in few { table[member.key] = member.disposable }
                table[key] = disposable
                members = .many(table)
            case .many(var table):
                table[key] = disposable
                members = .many(table)
            }
            return DisposeKey(value: key)
        }
        if key == nil {
            disposable.dispose()
        }
        return key
    }

    /// The number of disposables in the group.
    public var count: Int {
        lock.performLocked {
            switch members {
            case .few(let few): few.count
            case .many(let table): table.count
            case nil: 0
            }
        }
    }

    /// Removes the disposable with `disposeKey` and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        let removed: Disposable? = lock.performLocked {
            guard let taken = members.take() else { return nil }
            switch taken {
            case .few(var few):
                let index = Self.index(of: disposeKey.value, in: few)
                let removed = index.map { few.remove(at: $0).disposable }
                members = .few(few)
                return removed
            case .many(var table):
                let removed = table.removeValue(forKey: disposeKey.value)
                members = .many(table)
                return removed
            }
        }
        removed?.dispose()
    }

    /// Where the member with `key` is in `few` (sorted by key), found by binary search.
    private static func index(of key: UInt64, in few: ContiguousArray<Member>) -> Int? {
        var low = 0
        var high = few.count
        while low < high {
            let middle = (low + high) / 2
            if few[middle].key < key {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < few.count && few[low].key == key ? low : nil
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        lock.performLocked { members == nil }
    }

    /// Disposes every disposable of the group, and each one added later.
    public func dispose() {
        let all: Members? = lock.performLocked { members.take() }
        switch all {
        case .few(let few):
            for member in few {
                member.disposable.dispose()
            }
        case .many(let table):
            for key in table.keys.sorted() {
                table[key]!.dispose()
            }
        case nil:
            break
        }
    }
}
