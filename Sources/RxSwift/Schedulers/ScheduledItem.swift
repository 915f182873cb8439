import Synchronization

/// One unit of scheduled work: runs its action at most once, not at all once disposed.
/// Counted in `Resources.total` while alive.
@usableFromInline
final class ScheduledItem<State>: Cancelable {
    @usableFromInline
    let action: (State) -> Disposable
    @usableFromInline
    let state: State
    @usableFromInline
    let disposable = SingleAssignmentDisposable()

    @inlinable
    init(action: @escaping (State) -> Disposable, state: State) {
        self.action = action
        self.state = state
        Resources.add(1)
    }

    @inlinable
    func invoke() {
        disposable.setDisposable(action(state))
    }

    @inlinable
    var isDisposed: Bool { disposable.isDisposed }

    @inlinable
    func dispose() {
        disposable.dispose()
    }

    deinit {
        Resources.add(-1)
    }
}

/// A scheduled item with its state erased, for queues of work.
@usableFromInline
protocol InvocableType {
    func invoke()
    var isDisposed: Bool { get }
}

extension ScheduledItem: InvocableType {}
