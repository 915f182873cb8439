import Glibc

/// Process-level helpers: the file-descriptor limit and another process's RSS.
enum ProcessResources {
    /// Raises the soft RLIMIT_NOFILE to the hard limit; returns the new soft limit.
    @discardableResult
    static func raiseFileLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return UInt64(limit.rlim_cur)
    }

    /// VmRSS of process `pid` in KiB, from /proc/<pid>/status; nil when unreadable.
    static func residentKiB(of pid: Int32) -> Int? {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmRSS:") else { continue }
            let digits = text.dropFirst(6).filter { $0.isNumber }
            return Int(digits)
        }
        return nil
    }
}
