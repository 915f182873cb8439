import Foundation
import RxSwift

/// Makes the scheduler of `Driver` and `Signal`: a new `MainScheduler()` for each shared
/// sequence, as RxSwift does, so that each counts its own queued work (in rxlive, the main
/// thread is the connection's event loop), or a test scheduler inside `mock`.
public enum SharingScheduler {
    private static let lock = NSLock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var maker: () -> SchedulerType = { MainScheduler() }

    /// Makes the scheduler shared sequences deliver on.
    ///
    /// RxSwift declares it `public private(set) static var`; here it is a read-only computed
    /// property over lock-guarded storage (Swift 6 forbids unguarded global state), which
    /// reads the same at call sites.
    public static var make: () -> SchedulerType {
        lock.lock()
        defer { lock.unlock() }
        return maker
    }

    /// Runs `action` with shared sequences made inside it delivering on `scheduler`.
    /// For tests only.
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with shared sequences made inside it delivering on the scheduler
    /// `makeScheduler` makes. For tests only; the previous maker is restored afterwards,
    /// also when `action` throws.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        let original = exchange(makeScheduler)
        defer { _ = exchange(original) }
        try action()
    }

    private static func exchange(_ newMaker: @escaping () -> SchedulerType) -> () -> SchedulerType {
        lock.lock()
        defer { lock.unlock() }
        let old = maker
        maker = newMaker
        return old
    }
}
