import Synchronization

/// Base of observers that stop at their first terminal event (atomically, so a terminal
/// event racing another one is delivered once).
@usableFromInline
class ObserverBase<Element>: Disposable, ObserverType {
    @usableFromInline
    let isStopped = Atomic<Bool>(false)

    @inlinable
    init() {}

    @inlinable
    final func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if !isStopped.load(ordering: .acquiring) {
                onCore(event)
            }
        case .error, .completed:
            if !isStopped.exchange(true, ordering: .acquiringAndReleasing) {
                onCore(event)
            }
        }
    }

    /// Handles an event that passed the stop check. Abstract.
    @usableFromInline
    func onCore(_ event: Event<Element>) {
        rxAbstractMethod()
    }

    @inlinable
    func dispose() {
        isStopped.store(true, ordering: .releasing)
    }
}
