import EventLoop
import Foundation
import Synchronization

/// Runs an EventLoop on its own thread for a test and lets the test call into it synchronously.
public final class LoopThread: Sendable {
    public let loop: EventLoop
    private let finished = DispatchSemaphore(value: 0)

    public init() throws {
        let loop = try EventLoop()
        self.loop = loop
        let finished = self.finished
        let thread = Thread {
            loop.run()
            finished.signal()
        }
        thread.start()
        // The creating thread counts as the loop's thread until run() takes over; wait for
        // that, or a test's first call could touch the loop from two threads at once.
        _ = try sync { () }
    }

    /// Runs `body` on the loop thread and returns its result.
    public func sync<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            let value = Result { try body() }
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { throw LoopTimeout() }
        return try result.withLock { $0! }.get()
    }

    /// Stops the loop and waits until `run()` returned; false when it did not in time.
    public func stop() -> Bool {
        loop.stop()
        return finished.wait(timeout: .now() + 10) == .success
    }
}

public struct LoopTimeout: Error {}

/// Holds loop-confined objects (handles, connections) between `sync` calls of a test.
// @unchecked Sendable: `value` is read and written only on the loop thread.
public final class LoopConfined<Value>: @unchecked Sendable {
    public var value: Value
    public init(_ value: Value) { self.value = value }
}

/// Polls `condition` until it holds or `timeout` passes.
public func eventually(timeout: TimeInterval = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// A value shared between the loop thread and the test thread.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    public init(_ value: Value) { mutex = Mutex(value) }
    public func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
