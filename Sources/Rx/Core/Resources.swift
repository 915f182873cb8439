import Synchronization

/// Live Rx resources (sinks, observers, subjects' subscriptions, scheduled items, observables).
///
/// Unlike RxSwift's `Resources.total`, this counter exists in every build: it is one relaxed
/// atomic add per allocation and release, so servers can prove that sessions tear down. Its
/// public figures are `Int32`, as RxSwift's (test base classes declare them so).
public enum Resources {
    @usableFromInline
    static let counter = Atomic<Int>(0)

    /// The number of live Rx resources.
    public static var total: Int32 {
        Int32(truncatingIfNeeded: counter.load(ordering: .relaxed))
    }

    /// Counts one more live resource. Returns the new total.
    @inlinable
    @discardableResult
    public static func incrementTotal() -> Int32 {
        Int32(truncatingIfNeeded: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// Counts one resource released. Returns the new total.
    @inlinable
    @discardableResult
    public static func decrementTotal() -> Int32 {
        Int32(truncatingIfNeeded: counter.wrappingSubtract(1, ordering: .relaxed).newValue)
    }
}
