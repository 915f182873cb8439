import Foundation

/// Several event loops, one thread each: the thread that calls `run()` drives the first loop
/// and a thread of its own drives each other one.
///
/// Create the group, then set up every loop's handles on the creating thread (each loop counts
/// that thread as its own until `run()` hands it over), then call `run()`.
public final class EventLoopGroup: Sendable {
    /// The loops; the first one runs on the thread that calls `run()`.
    public let loops: [EventLoop]

    /// `count` new loops (at least one).
    public init(count: Int) throws {
        precondition(count >= 1, "an event loop group needs at least one loop")
        loops = try (0..<count).map { _ in try EventLoop() }
    }

    /// The loop that runs on the calling thread of `run()`.
    public var first: EventLoop { loops[0] }

    /// One loop per processor this process may run on.
    public static var processorCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs every loop until each one was stopped and closed its handles: the first on the
    /// calling thread, the others on threads named `loop-1`, `loop-2`, ...
    public func run() {
        let finished = DispatchGroup()
        for (index, loop) in loops.enumerated().dropFirst() {
            finished.enter()
            let thread = Thread {
                loop.run()
                finished.leave()
            }
            thread.name = "loop-\(index)"
            thread.start()
        }
        first.run()
        finished.wait()
    }

    /// Stops every loop (see `EventLoop.stop()`); callable from any thread.
    public func stop() {
        for loop in loops { loop.stop() }
    }
}
