import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Every WebSocket session holds a file descriptor, and the usual soft limit
/// (1024) is far below what one loop can serve: raise it to the hard limit.
enum FileDescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit; returns the limit now in force.
    @discardableResult
    static func raiseToHardLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }

    /// Descriptors kept back for what a running server opens besides sessions: database
    /// connections, the revocation watcher, a TLS certificate reload, a log file.
    static let reserve: UInt64 = 64

    /// How many sessions fit under `limit` open files, one descriptor each, beside those open
    /// now and `reserve`.
    static func sessionsAllowed(underLimit limit: UInt64) -> UInt64 {
        let openNow = UInt64((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0)
        return limit > openNow + reserve ? limit - openNow - reserve : 0
    }
}
