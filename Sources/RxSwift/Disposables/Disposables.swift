import Synchronization

/// Factory of disposables.
public enum Disposables {}

extension Disposables {
    /// A disposable that does nothing.
    @inlinable
    public static func create() -> Disposable {
        NopDisposable()
    }

    /// A disposable that runs `dispose` once, on the first call to `dispose()`.
    @inlinable
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both `disposable1` and `disposable2`.
    @inlinable
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes the three disposables.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes the four (or more) disposables.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable ...) -> Cancelable {
        var all = disposables
        all.insert(contentsOf: [disposable1, disposable2, disposable3], at: 0)
        return CompositeDisposable(disposables: all)
    }

    /// A disposable that disposes every disposable of `disposables`.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}

/// The disposable that does nothing.
@usableFromInline
struct NopDisposable: Disposable, Sendable {
    @inlinable
    init() {}

    @inlinable
    func dispose() {}
}

/// Runs an action on the first `dispose()`.
@usableFromInline
final class AnonymousDisposable: Cancelable {
    @usableFromInline
    let disposed = Atomic<Bool>(false)
    /// Written once in init, then only by the thread that wins `disposed`.
    @usableFromInline
    @exclusivity(unchecked) var action: (() -> Void)?

    @inlinable
    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    @inlinable
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @inlinable
    func dispose() {
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) {
            let action = self.action
            self.action = nil
            action?()
        }
    }
}

/// Disposes two disposables once.
@usableFromInline
final class BinaryDisposable: Cancelable {
    @usableFromInline
    let disposed = Atomic<Bool>(false)
    /// Written in init, then only by the thread that wins `disposed`.
    @usableFromInline
    @exclusivity(unchecked) var first: Disposable?
    @usableFromInline
    @exclusivity(unchecked) var second: Disposable?

    @inlinable
    init(_ first: Disposable, _ second: Disposable) {
        self.first = first
        self.second = second
    }

    @inlinable
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @inlinable
    func dispose() {
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) {
            let first = self.first, second = self.second
            self.first = nil
            self.second = nil
            first?.dispose()
            second?.dispose()
        }
    }
}
