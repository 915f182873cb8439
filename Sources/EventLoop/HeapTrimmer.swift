import CLibUV

/// Gives the memory of closed connections back to the system.
///
/// glibc keeps freed heap memory for reuse, so after thousands of sessions close a process
/// stays as large as at its peak. Once `closesBeforeTrim` connections of a loop have closed,
/// the loop asks glibc to return its free pages (`malloc_trim`) when the closing has settled,
/// `settleMilliseconds` after the last close; a steady stream of connections never waits for it.
final class HeapTrimmer {
    static let closesBeforeTrim = 256
    static let settleMilliseconds: UInt64 = 1000

    private var closedSinceTrim = 0
    /// Made with the loop, closed by `stop()`; unreferenced, so it never keeps the loop alive.
    private let timer: LoopOwnTimer
    private var isClosed = false

    init(loop: UnsafeMutablePointer<uv_loop_t>) {
        timer = LoopOwnTimer(loop: loop)
        timer.setOwner(self)
        timer.unref()
    }

    /// A connection of the loop closed: (re)starts the settle delay once enough have.
    func connectionClosed() {
        closedSinceTrim += 1
        guard closedSinceTrim >= Self.closesBeforeTrim, !isClosed else { return }
        timer.start(after: Self.settleMilliseconds, heapTrimDidFire)
    }

    fileprivate func trim() {
        closedSinceTrim = 0
        malloc_trim(0)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        timer.close()
    }
}

private func heapTrimDidFire(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    LoopOwnTimer.owner(of: timer, as: HeapTrimmer.self)?.trim()
}
