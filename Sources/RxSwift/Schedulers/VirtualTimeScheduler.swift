#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A scheduler whose clock only moves when work runs: `start()` runs the queued work in time
/// order, jumping the clock to each item's time. Subclass it with your own
/// `VirtualTimeConverterType`, as with RxSwift's.
///
/// Used from one thread at a time. Unlike RxSwift's, it does not require that thread to be
/// the main thread (RxSwift checks with `MainScheduler.ensureExecutingOnScheduler()`).
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType {
    /// Virtual time.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// Virtual time interval.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private var running = false
    private var currentClock: VirtualTime
    fileprivate var queue: PriorityQueue<VirtualSchedulerItem<VirtualTime>>
    private var nextId = 0
    private let converter: Converter

    /// The real time of the current virtual time.
    public var now: RxTime { converter.convertFromVirtualTime(clock) }

    /// The current virtual time.
    public var clock: VirtualTime { currentClock }

    /// A scheduler at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.currentClock = initialClock
        self.converter = converter
        self.queue = PriorityQueue { lhs, rhs in
            switch converter.compareVirtualTime(lhs.time, rhs.time) {
            case .lessThan: return true
            case .greaterThan: return false
            case .equal: return lhs.id < rhs.id
            }
        }
    }

    /// Schedules `action` at the current virtual time (after work already due now).
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` at `now + dueTime` converted to virtual time, adjusted by
    /// `adjustScheduledTime` (the only entry point that adjusts, as in RxSwift).
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let time = converter.convertToVirtualTime(now.addingDispatchInterval(dueTime))
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }

    /// Schedules `action` after `dueTime` virtual time units.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Schedules `action` at virtual time `time`, as given (a time already past runs next,
    /// without moving the clock back).
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        let id = nextId
        nextId += 1
        let item = VirtualSchedulerItem(time: time, id: id) {
            action(state)
        }
        queue.enqueue(item)
        return item
    }

    /// Adjusts the time of work scheduled with `schedule`/`scheduleRelative`. Default: unchanged.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs the queued work in time order until none is left or `stop()` is called.
    public func start() {
        if running { return }
        running = true
        repeat {
            guard let next = findNext() else { break }
            if converter.compareVirtualTime(next.time, clock) == .greaterThan {
                currentClock = next.time
            }
            next.invoke()
            queue.remove(next)
        } while running
        running = false
    }

    /// Runs the work due at or before `virtualTime`, then sets the clock to `virtualTime`.
    public func advanceTo(_ virtualTime: VirtualTime) {
        if running {
            fatalError("Scheduler is already running")
        }
        running = true
        repeat {
            guard let next = findNext() else { break }
            if converter.compareVirtualTime(next.time, virtualTime) == .greaterThan { break }
            if converter.compareVirtualTime(next.time, clock) == .greaterThan {
                currentClock = next.time
            }
            next.invoke()
            queue.remove(next)
        } while running
        if converter.compareVirtualTime(clock, virtualTime) == .lessThan {
            currentClock = virtualTime
        }
        running = false
    }

    /// Moves the clock forward by `virtualInterval` without running work.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let sleepTo = converter.offsetVirtualTime(clock, offset: virtualInterval)
        if converter.compareVirtualTime(sleepTo, clock) == .lessThan {
            fatalError("Can't sleep to past")
        }
        currentClock = sleepTo
    }

    /// Stops `start()` after the current item.
    public func stop() {
        running = false
    }

    private func findNext() -> VirtualSchedulerItem<VirtualTime>? {
        while let front = queue.peek() {
            if front.isDisposed {
                queue.remove(front)
                continue
            }
            return front
        }
        return nil
    }
}

extension VirtualTimeScheduler: CustomDebugStringConvertible {
    /// The virtual times of the queued work.
    public var debugDescription: String {
        queue.debugDescription
    }
}

/// One unit of work of a virtual time scheduler. Counted in `Resources.total` while alive.
final class VirtualSchedulerItem<Time>: Cancelable {
    let time: Time
    let id: Int
    private var action: (() -> Disposable)?
    private let disposable = SingleAssignmentDisposable()

    init(time: Time, id: Int, action: @escaping () -> Disposable) {
        self.time = time
        self.id = id
        self.action = action
        Resources.add(1)
    }

    var isDisposed: Bool { disposable.isDisposed }

    func invoke() {
        guard let action else { return }
        self.action = nil
        disposable.setDisposable(action())
    }

    func dispose() {
        action = nil
        disposable.dispose()
    }

    deinit {
        Resources.add(-1)
    }
}

extension VirtualSchedulerItem: CustomDebugStringConvertible {
    /// The item's virtual time.
    var debugDescription: String {
        "\(time)"
    }
}
