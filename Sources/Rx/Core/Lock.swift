import Synchronization

/// The lock of the library's classes: a `Mutex<Void>` guarding the plain stored properties of
/// the class that owns it. Every access to such a property happens inside `performLocked`.
@usableFromInline
typealias RxLock = Mutex<Void>

extension Mutex where Value == Void {
    /// Runs `body` holding the lock.
    @inlinable
    @inline(__always)
    func performLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withLock { _ in try body() }
    }
}
