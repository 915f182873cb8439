import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock the holding thread may take again. Operators that forward events while holding
/// their lock use it, because the observer may call back into the operator on the same
/// thread (`Mutex` alone is not reentrant). Built on `Mutex`: the owner's thread id is kept
/// in an atomic, so a nested call on the owning thread just runs its body.
@usableFromInline
final class RecursiveLock {
    @usableFromInline
    let mutex = Mutex<Void>(())
    /// The owning thread, or 0. Only the owner stores its own id, so a thread can read its
    /// own id here only while it holds the mutex.
    @usableFromInline
    let owner = Atomic<UInt>(0)

    @inlinable
    init() {}

    @inlinable
    func performLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        let me = currentThreadIdentifier()
        if owner.load(ordering: .relaxed) == me {
            return try body()
        }
        return try mutex.withLock { _ in
            owner.store(me, ordering: .relaxed)
            defer { owner.store(0, ordering: .relaxed) }
            return try body()
        }
    }
}

/// A non-zero identifier of the calling thread.
@inlinable
func currentThreadIdentifier() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
