import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Moves a non-Sendable value into a dispatch closure. Safe because each box is handed to
/// exactly one queue and used only by the work it carries; the queue hop orders the accesses.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
}

/// The scheduling shared by the dispatch queue schedulers.
struct DispatchQueueConfiguration: @unchecked Sendable { // DispatchQueue is thread-safe; `leeway` is immutable
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = ScheduledItem(action: action, state: state)
        let box = UncheckedSendableBox(value: item)
        queue.async {
            let item = box.value
            if !item.isDisposed {
                item.invoke()
            }
        }
        return item
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let deadline = DispatchTime.now() + dueTime
        let item = ScheduledItem(action: action, state: state)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let box = UncheckedSendableBox(value: item)
        timer.schedule(deadline: deadline, leeway: leeway)
        // The handler holds the timer so it stays alive until it fires; cancelling releases
        // the handler and with it this cycle.
        timer.setEventHandler {
            let item = box.value
            if !item.isDisposed {
                item.invoke()
            }
            timer.cancel()
        }
        timer.resume()
        return TimerDisposable(timer: timer, item: item)
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let periodic = PeriodicState(state: state, action: action)
        let box = UncheckedSendableBox(value: periodic)
        timer.schedule(deadline: DispatchTime.now() + startAfter, repeating: period, leeway: leeway)
        // The handler holds the timer so it runs until disposed (which cancels it and
        // releases the handler).
        timer.setEventHandler {
            box.value.fire()
            _ = timer
        }
        timer.resume()
        return TimerDisposable(timer: timer, item: periodic)
    }
}

/// State of a periodic action; fired only by its timer, on its queue, never concurrently.
private final class PeriodicState<State>: Cancelable {
    private var state: State
    private let action: (State) -> State
    private let disposed = Atomic<Bool>(false)

    init(state: State, action: @escaping (State) -> State) {
        self.state = state
        self.action = action
        Resources.add(1)
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func fire() {
        if !isDisposed {
            state = action(state)
        }
    }

    func dispose() {
        disposed.store(true, ordering: .releasing)
    }

    deinit {
        Resources.add(-1)
    }
}

/// Cancels a dispatch timer (releasing its handler) and the work it carries.
private final class TimerDisposable: Cancelable {
    private let disposed = Atomic<Bool>(false)
    private let timer: DispatchSourceTimer
    private let item: Cancelable

    init(timer: DispatchSourceTimer, item: Cancelable) {
        self.timer = timer
        self.item = item
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        if !disposed.exchange(true, ordering: .acquiringAndReleasing) {
            item.dispose()
            timer.cancel()
        }
    }
}

/// The leeway of the dispatch schedulers' timers.
let defaultDispatchLeeway = DispatchTimeInterval.nanoseconds(0)
