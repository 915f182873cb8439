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
    // The mutex guards every access to the state and the disposable it holds. The disposable
    // is swapped in and out of it, so it moves without a copy. It is kept as a class
    // existential (`disposableObject(_:)`; nil for a `NopDisposable`): 16 bytes where a
    // `Disposable` takes 40, and taking it out or dropping it is a release, not a call
    // through the `Optional<Disposable>` value witnesses (`RxLayoutTests`).
    @usableFromInline
    enum State: @unchecked Sendable {
        case empty
        case assigned((AnyObject & Disposable)?)
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
    borrowing func setDisposable(_ disposable: consuming Disposable) {
        setDisposable(object: disposableObject(disposable))
    }

    /// `setDisposable(_:)` with the disposable already a class reference, as
    /// `Observable.subscribeErasedObject` gives it (nil: nothing to dispose).
    @inlinable
    borrowing func setDisposable(object: consuming (AnyObject & Disposable)?) {
        var incoming = State.assigned(object)
        state.withLock { state in
            switch state {
            case .empty:
                swap(&state, &incoming)
            case .disposed:
                break
            case .assigned:
                rxFatalError("oldState.disposable != nil")
            }
        }
        // Still assigned: the slot was disposed first.
        if case .assigned(let late) = incoming {
            late?.dispose()
        }
    }

    /// Disposes the disposable if it was set (and any set later).
    @inlinable
    borrowing func dispose() {
        let disposable: (AnyObject & Disposable)? = state.withLock { state in
            var taken = State.disposed
            swap(&state, &taken)
            if case .assigned(let disposable) = consume taken {
                return disposable
            }
            return nil
        }
        disposable?.dispose()
    }
}
