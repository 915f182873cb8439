import Synchronization

/// Live Rx resources (sinks, observers, subjects' subscriptions, scheduled items, observables).
///
/// Unlike RxSwift's `Resources.total`, this counter exists in every build: it is one relaxed
/// atomic add per allocation and release, so servers can prove that sessions tear down.
public enum Resources {
    @usableFromInline
    static let counter = Atomic<Int>(0)

    /// The number of live Rx resources.
    public static var total: Int {
        counter.load(ordering: .relaxed)
    }

    /// Counts one more live resource. Returns the new total.
    @inlinable
    @discardableResult
    public static func incrementTotal() -> Int {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Counts one resource released. Returns the new total.
    @inlinable
    @discardableResult
    public static func decrementTotal() -> Int {
        counter.wrappingSubtract(1, ordering: .relaxed).newValue
    }
}
