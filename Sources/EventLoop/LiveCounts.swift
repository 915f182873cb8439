import Synchronization

/// Process-wide live counters of the event-loop layer, for tests and metrics.
///
/// `handles` counts every open libuv handle wrapper (from a successful init to its close
/// callback); `connections` counts accepted TCP connections until their close callback.
package enum LiveCounts {
    private static let openHandles = Atomic<Int>(0)
    private static let openConnections = Atomic<Int>(0)

    /// libuv handles (timers, signals, TCP, async) currently open in any loop.
    package static var handles: Int { openHandles.load(ordering: .relaxed) }

    /// Accepted TCP connections not yet closed.
    package static var connections: Int { openConnections.load(ordering: .relaxed) }

    static func handleOpened() { openHandles.add(1, ordering: .relaxed) }
    static func handleClosed() { openHandles.subtract(1, ordering: .relaxed) }
    static func connectionOpened() { openConnections.add(1, ordering: .relaxed) }
    static func connectionClosed() { openConnections.subtract(1, ordering: .relaxed) }
}
