import CLibUV

/// Gives the memory of closed connections back to the system.
///
/// glibc keeps freed heap memory for reuse, so after thousands of sessions close a process
/// stays as large as at its peak. Once `closesBeforeTrim` connections of a loop have closed,
/// the loop asks glibc to return its free pages (`malloc_trim`) when the closing has settled,
/// `settleMilliseconds` after the last close; a steady stream of connections never waits for it.
///
/// A loop kept off the CPU for longer than the settle delay runs its timers before the closes
/// that waited, so a burst's trim can come before its last closes: for `burstMilliseconds`
/// after a burst's trim, any close trims again once the closing settles.
final class HeapTrimmer {
    static let closesBeforeTrim = 256
    static let settleMilliseconds: UInt64 = 1000
    static let burstMilliseconds: UInt64 = 10_000

    private var closedSinceTrim = 0
    /// The loop time of the last trim that a burst (`closesBeforeTrim` closes) set off.
    private var burstTrimmedAt: UInt64?
    private let loop: UnsafeMutablePointer<uv_loop_t>
    /// Made with the loop, closed by `stop()`; unreferenced, so it never keeps the loop alive.
    private let timer: LoopOwnTimer
    private var isClosed = false
    /// The timer is armed. A close while it is only moves `settlesAt`: the timer, when it
    /// fires early, waits the rest, so a stream of closes restarts no libuv timer each.
    private var isArmed = false
    /// The loop time the closing settles at: `settleMilliseconds` after the last arming close.
    private var settlesAt: UInt64 = 0

    init(loop: UnsafeMutablePointer<uv_loop_t>) {
        self.loop = loop
        timer = LoopOwnTimer(loop: loop)
        timer.setOwner(self)
        timer.unref()
    }

    /// Whether a close (re)starts the settle delay: once enough have closed since the last
    /// trim, or while a burst that was trimmed may still be closing.
    static func closeArmsTrim(closedSinceTrim: Int, millisecondsSinceBurstTrim: UInt64?) -> Bool {
        closedSinceTrim >= closesBeforeTrim || millisecondsSinceBurstTrim.map { $0 < burstMilliseconds } ?? false
    }

    /// A connection of the loop closed: (re)starts the settle delay when `closeArmsTrim`.
    func connectionClosed() {
        closedSinceTrim += 1
        guard !isClosed else { return }
        let sinceBurstTrim = burstTrimmedAt.map { uv_now(loop) &- $0 }
        guard Self.closeArmsTrim(closedSinceTrim: closedSinceTrim, millisecondsSinceBurstTrim: sinceBurstTrim) else { return }
        settlesAt = uv_now(loop) + Self.settleMilliseconds
        if !isArmed {
            isArmed = true
            timer.start(after: Self.settleMilliseconds, heapTrimDidFire)
        }
    }

    /// How long a timer firing at `now` still waits for the closing to settle at `settlesAt`;
    /// nil when it has settled.
    static func settleWait(now: UInt64, settlesAt: UInt64) -> UInt64? {
        now < settlesAt ? settlesAt - now : nil
    }

    fileprivate func timerFired() {
        if let wait = Self.settleWait(now: uv_now(loop), settlesAt: settlesAt) {
            timer.start(after: wait, heapTrimDidFire)
            return
        }
        isArmed = false
        trim()
    }

    private func trim() {
        if closedSinceTrim >= Self.closesBeforeTrim {
            burstTrimmedAt = uv_now(loop)
        }
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
    LoopOwnTimer.owner(of: timer, as: HeapTrimmer.self)?.timerFired()
}
