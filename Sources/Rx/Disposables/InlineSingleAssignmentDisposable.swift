import Synchronization

/// `SingleAssignmentDisposable`'s behaviour stored inline in the sink that owns it (a `let`
/// property): no allocation per subscription slot. Sinks that keep one disposable per source
/// (combineLatest, flatMap's source subscription) use it; anything that must be handed out as
/// a `Disposable` keeps using the class.
///
/// The disposable may be set once; if the slot was disposed first, it is disposed as soon as
/// it is set.
@usableFromInline
struct InlineSingleAssignmentDisposable: ~Copyable {
    // The mutex guards every access to the state and the disposable it holds.
    @usableFromInline
    enum State: @unchecked Sendable {
        case empty
        case assigned(Disposable)
        case disposed
    }

    @usableFromInline
    let state = Mutex<State>(.empty)

    @inlinable
    init() {}

    /// `true` once `dispose()` ran.
    @inlinable
    var isDisposed: Bool {
        state.withLock { state in
            if case .disposed = state { return true }
            return false
        }
    }

    /// Keeps `disposable` until `dispose()`, or disposes it at once if that already ran.
    @inlinable
    borrowing func setDisposable(_ disposable: Disposable) {
        let disposeNow: Bool = state.withLock { state in
            switch state {
            case .empty:
                state = .assigned(disposable)
                return false
            case .disposed:
                return true
            case .assigned:
                rxFatalError("oldState.disposable != nil")
            }
        }
        if disposeNow {
            disposable.dispose()
        }
    }

    /// Disposes the disposable set (now or when it is set); later calls do nothing.
    @inlinable
    borrowing func dispose() {
        let assigned: Disposable? = state.withLock { state in
            defer { state = .disposed }
            if case .assigned(let disposable) = state {
                return disposable
            }
            return nil
        }
        assigned?.dispose()
    }
}
