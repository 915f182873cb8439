import Synchronization

/// Disposes the wrapped disposable on a scheduler.
public final class ScheduledDisposable: Cancelable {
    /// The scheduler the disposal runs on.
    public let scheduler: ImmediateSchedulerType

    private let disposed = Atomic<Bool>(false)
    /// Written in init, taken only by the thread that wins `disposed`.
    private var disposable: Disposable?

    /// Wraps `disposable`, to be disposed on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.disposable = disposable
    }

    /// `true` once `dispose()` was called.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Schedules the disposal of the wrapped disposable.
    public func dispose() {
        if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
        _ = scheduler.schedule(self) { owner in
            let disposable = owner.disposable
            owner.disposable = nil
            disposable?.dispose()
            return Disposables.create()
        }
    }
}
