import Synchronization

extension ImmediateSchedulerType {
    /// Schedules `action`, which may schedule itself again through `recurse`.
    ///
    /// - returns: A disposable that cancels the pending and future runs.
    public func scheduleRecursive<State>(_ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        let recursive = RecursiveImmediateScheduler(action: action, scheduler: self)
        recursive.schedule(state)
        return Disposables.create(with: recursive.dispose)
    }
}

extension SchedulerType {
    /// Schedules `action` after `dueTime`; it may schedule itself again through `recurse`.
    ///
    /// - returns: A disposable that cancels the pending and future runs.
    public func scheduleRecursive<State>(_ state: State, dueTime: RxTimeInterval, action: @escaping (_ state: State, _ recurse: (State, RxTimeInterval) -> Void) -> Void) -> Disposable {
        let recursive = RecursiveScheduler(action: action, scheduler: self)
        recursive.schedule(state, dueTime: dueTime)
        return Disposables.create(with: recursive.dispose)
    }
}

/// Where one scheduled run stands: its disposable joins the group unless it already ran.
private enum ScheduleState {
    case initial
    case added(CompositeDisposable.DisposeKey)
    case done
}

/// Keeps the disposables of the pending runs of a recursive action.
private final class RecursiveSchedulingGroup {
    private let lock = RxLock(())
    let group = CompositeDisposable()

    /// Registers the disposable of a scheduled run; `state` tells whether it already ran.
    func register(_ disposable: Disposable, state: ScheduleStateBox) {
        let add = lock.performLocked { () -> Bool in
            if case .initial = state.value { return true }
            return false
        }
        guard add else { return }
        if let key = group.insert(disposable) {
            let ranMeanwhile = lock.performLocked { () -> Bool in
                if case .initial = state.value {
                    state.value = .added(key)
                    return false
                }
                return true
            }
            if ranMeanwhile {
                group.remove(for: key)
            }
        }
    }

    /// Marks a run as started and removes its disposable from the group.
    func started(_ state: ScheduleStateBox) {
        let key: CompositeDisposable.DisposeKey? = lock.performLocked {
            defer { state.value = .done }
            if case .added(let key) = state.value { return key }
            return nil
        }
        if let key {
            group.remove(for: key)
        }
    }
}

/// A run's schedule state, shared by the scheduling call and the run (guarded by the group's lock).
private final class ScheduleStateBox {
    var value = ScheduleState.initial
}

private final class RecursiveImmediateScheduler<State> {
    private let action: (State, (State) -> Void) -> Void
    private let scheduler: ImmediateSchedulerType
    private let runs = RecursiveSchedulingGroup()

    init(action: @escaping (State, (State) -> Void) -> Void, scheduler: ImmediateSchedulerType) {
        self.action = action
        self.scheduler = scheduler
    }

    func schedule(_ state: State) {
        let scheduleState = ScheduleStateBox()
        let disposable = scheduler.schedule(state) { state in
            self.runs.started(scheduleState)
            if self.runs.group.isDisposed {
                return Disposables.create()
            }
            self.action(state, self.schedule)
            return Disposables.create()
        }
        runs.register(disposable, state: scheduleState)
    }

    func dispose() {
        runs.group.dispose()
    }
}

private final class RecursiveScheduler<State, Scheduler: SchedulerType> {
    private let action: (State, (State, RxTimeInterval) -> Void) -> Void
    private let scheduler: Scheduler
    private let runs = RecursiveSchedulingGroup()

    init(action: @escaping (State, (State, RxTimeInterval) -> Void) -> Void, scheduler: Scheduler) {
        self.action = action
        self.scheduler = scheduler
    }

    func schedule(_ state: State, dueTime: RxTimeInterval) {
        let scheduleState = ScheduleStateBox()
        let disposable = scheduler.scheduleRelative(state, dueTime: dueTime) { state in
            self.runs.started(scheduleState)
            if self.runs.group.isDisposed {
                return Disposables.create()
            }
            self.action(state, self.schedule)
            return Disposables.create()
        }
        runs.register(disposable, state: scheduleState)
    }

    func dispose() {
        runs.group.dispose()
    }
}
