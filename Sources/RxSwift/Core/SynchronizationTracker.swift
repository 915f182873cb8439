#if DEBUG
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Debug-only detector of reentrant and concurrent event delivery to one observer.
final class SynchronizationTracker: Sendable {
    private struct State {
        var owner: UInt = 0
        var depth = 0
    }
    private let state = Mutex(State())

    private static var currentThread: UInt {
        #if canImport(Darwin)
        return UInt(bitPattern: pthread_self())
        #else
        return UInt(pthread_self())
        #endif
    }

    init() {}

    func register() {
        let me = Self.currentThread
        let anomaly: SynchronizationAnomaly? = state.withLock { state in
            if state.depth == 0 {
                state.owner = me
                state.depth = 1
                return nil
            }
            if state.owner == me {
                state.depth += 1
                return .reentrancy
            }
            return .concurrentAccess
        }
        if let anomaly {
            Hooks.synchronizationAnomalyHandler(anomaly)
        }
    }

    func unregister() {
        let me = Self.currentThread
        state.withLock { state in
            if state.depth > 0 && state.owner == me {
                state.depth -= 1
            }
        }
    }
}
#endif
