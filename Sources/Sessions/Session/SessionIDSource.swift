import EventLoop

/// Session ids: 64 random bits each, taken from a buffer that one system call fills for 64
/// sessions. One source per endpoint, used on its loop's thread only.
final class SessionIDSource {
    // Unchecked for exclusivity: one loop's thread, no call out while accessed.
    @exclusivity(unchecked) private var pool = [UInt64](repeating: 0, count: 64)
    @exclusivity(unchecked) private var nextIndex = 64

    /// The next id.
    func next() -> UInt64 {
        if nextIndex == pool.count {
            pool.withUnsafeMutableBytes { SystemRandom.fill($0) }
            nextIndex = 0
        }
        defer { nextIndex += 1 }
        return pool[nextIndex]
    }
}
