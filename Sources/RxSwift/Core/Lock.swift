import Synchronization

/// The lock of the library's classes: a `Mutex<Void>` guarding the plain stored properties of
/// the class that owns it. Every access to such a property happens inside `performLocked`.
///
/// Hot classes mark such properties (and properties handed over through an atomic flag)
/// `@exclusivity(unchecked)`: the lock or the atomic already orders every access, and the
/// dynamic exclusivity check (a thread-local access-set update per access) was the largest
/// single cost on the event paths.
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
