import CRxResources

/// Live Rx resources (sinks, observers, subjects' subscriptions, scheduled items, observables).
///
/// Unlike RxSwift's `Resources.total`, this count exists in every build, so servers can prove
/// that sessions tear down. Each thread counts in its own slot (a load and a store, no atomic
/// read-modify-write per allocation and release); `total` sums the slots. Its public figures
/// are `Int32`, as RxSwift's (test base classes declare them so).
public enum Resources {
    /// The number of live Rx resources.
    public static var total: Int32 {
        Int32(truncatingIfNeeded: rx_resources_total())
    }

    /// Counts one more live resource. Returns the new total.
    @discardableResult
    public static func incrementTotal() -> Int32 {
        add(1)
        return total
    }

    /// Counts one resource released. Returns the new total.
    @discardableResult
    public static func decrementTotal() -> Int32 {
        add(-1)
        return total
    }

    /// Adds `delta` live resources; what the library's own modules call (they need no total
    /// back, which `incrementTotal()` sums over every thread's slot under a lock).
    @inlinable
    package static func add(_ delta: Int) {
        rx_resources_add(delta)
    }
}
