import Dispatch
import FoundationEssentials
import Glibc
import ProcessSupport

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

    /// One loop per processor this process may run on: the CPUs its affinity allows (as
    /// `taskset` or a container's cpuset sets them), else every active one.
    public static var processorCount: Int {
        let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        return status.flatMap(allowedProcessorCount(procStatus:))
            ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The number of CPUs in the `Cpus_allowed_list` line ("0-3,6") of a /proc/PID/status
    /// text; nil when there is no such line or it does not parse. Foundation's processor
    /// count ignores the affinity mask, and Glibc's module does not offer sched_getaffinity.
    static func allowedProcessorCount(procStatus: String) -> Int? {
        guard let line = procStatus.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") })
        else { return nil }
        var count = 0
        for range in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
            let bounds = range.split(separator: "-").map { Int($0.filter { $0 != " " && $0 != "\t" }) }
            switch bounds.count {
            case 1: guard bounds[0] != nil else { return nil }; count += 1
            case 2:
                guard let low = bounds[0], let high = bounds[1], low <= high else { return nil }
                count += high - low + 1
            default: return nil
            }
        }
        return count > 0 ? count : nil
    }

    /// Runs every loop until each one was stopped and closed its handles: the first on the
    /// calling thread, the others on threads named `loop-1`, `loop-2`, ...
    public func run() {
        let finished = DispatchGroup()
        for (index, loop) in loops.enumerated().dropFirst() {
            finished.enter()
            NamedThread.start(name: "loop-\(index)") {
                loop.run()
                finished.leave()
            }
        }
        first.run()
        finished.wait()
    }

    /// Stops every loop (see `EventLoop.stop()`); callable from any thread.
    public func stop() {
        for loop in loops { loop.stop() }
    }
}
