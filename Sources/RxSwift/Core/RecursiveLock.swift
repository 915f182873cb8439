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
///
/// A class, for locks shared between objects; a sink that owns its lock alone stores an
/// `InlineRecursiveLock` instead, which costs no allocation of its own.
@usableFromInline
final class RecursiveLock {
    @usableFromInline
    let lock = InlineRecursiveLock()

    @inlinable
    init() {}

    @inlinable
    func performLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.performLocked(body)
    }
}

/// `RecursiveLock`'s state stored inline in the object that owns it (a `let` property):
/// no allocation per lock, which matters for sinks made once per subscription.
@usableFromInline
struct InlineRecursiveLock: ~Copyable {
    @usableFromInline
    let mutex = Mutex<Void>(())
    /// The owning thread, or 0. Only the owner stores its own id, so a thread can read its
    /// own id here only while it holds the mutex.
    @usableFromInline
    let owner = Atomic<UInt>(0)

    @inlinable
    init() {}

    @inlinable
    borrowing func performLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.performLocked(mutex, owner, body)
    }

    /// `performLocked` over a mutex and an owner word kept apart, for an object that places
    /// the 4-byte mutex in padding where the whole lock's 8-byte alignment would not fit.
    @inlinable @inline(__always)
    static func performLocked<Result>(_ mutex: borrowing Mutex<Void>, _ owner: borrowing Atomic<UInt>,
                                      _ body: () throws -> Result) rethrows -> Result {
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

@inlinable
func currentThreadIdentifier() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
