import CRxResources
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Schedules work on the current thread: the first `schedule` on a thread runs its action at
/// once and then runs, in order, the work the action scheduled meanwhile (a trampoline);
/// `schedule` inside a running trampoline queues the work.
public final class CurrentThreadScheduler: ImmediateSchedulerType, Sendable {
    /// The scheduler.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// `true` when no trampoline runs on this thread, so scheduling would run the work now.
    /// Inlinable: every subscription asks, and the answer is one thread-local load.
    @inlinable
    public static var isScheduleRequired: Bool {
        rx_trampoline_is_running() == 0
    }

    private static func currentTrampoline() -> Trampoline {
        if let pointer = pthread_getspecific(trampolineKey) {
            return Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
        }
        let trampoline = Trampoline()
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }

    /// Runs `body` as this thread's trampoline, then the work it queued: `schedule` when
    /// `isScheduleRequired`, for a caller that keeps the type of what `body` returns.
    @usableFromInline
    static func runAsTrampoline<Result>(_ body: () -> Result) -> Result {
        let trampoline = currentTrampoline()
        rx_trampoline_set_running(1)
        defer { rx_trampoline_set_running(0) }
        let result = body()
        trampoline.drain()
        return result
    }

    /// Runs `action` now if no trampoline runs on this thread (then drains the work it
    /// queued); queues it otherwise.
    ///
    /// - returns: A disposable that cancels queued work.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = Self.currentTrampoline()
        if rx_trampoline_is_running() != 0 {
            let item = ScheduledItem(action: action, state: state)
            trampoline.queue.append(item)
            return item
        }
        return Self.runAsTrampoline { action(state) }
    }
}

/// One thread's trampoline queue (thread-confined: reached only through a pthread key); whether
/// it runs is the C thread-local `rx_trampoline_running`, which every subscription reads.
// @exclusivity(unchecked): only the owning thread touches the fields (the pthread key), and
// the dynamic checks cost more than the rest of a subscription's trampoline visit.
private final class Trampoline {
    @exclusivity(unchecked) var queue: [InvocableType] = []
    @exclusivity(unchecked) var head = 0

    func drain() {
        if queue.isEmpty {
            return
        }
        while head < queue.count {
            let item = queue[head]
            head += 1
            if !item.isDisposed {
                item.invoke()
            }
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
    }
}

private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key) { pointer in
        #if canImport(Darwin)
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
        #else
        if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        #endif
    }
    precondition(result == 0, "pthread_key_create failed")
    return key
}()
