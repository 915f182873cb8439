import CLibUV

/// A libuv timer. It can be started, stopped and restarted any number of times; `cancel()`
/// (or `close()`) ends its life. A timer made by `EventLoop.scheduleTimer` without a repeat
/// closes itself after it fires.
public final class TimerHandle: LoopHandle {
    private var body: (() -> Void)?
    private var closesAfterFiring = false
    /// Runs in the close callback (also when the loop's stop() closes an armed timer).
    package var onClose: (() -> Void)?

    /// A stopped timer on `loop`; call `start` to arm it.
    public init(loop: EventLoop) throws {
        super.init(loop: loop, type: UV_TIMER)
        try finishInit(status: uv_timer_init(loop.uvLoop, timer), operation: "uv_timer_init")
    }

    private var timer: UnsafeMutablePointer<uv_timer_t> { rawHandle.assumingMemoryBound(to: uv_timer_t.self) }

    /// Arms the timer: `body` runs after `delay`, then every `repeating` if given.
    /// Restarting an armed timer replaces its schedule and body.
    public func start(after delay: Duration, repeating: Duration? = nil, _ body: @escaping () -> Void) {
        guard !isClosing else { return }
        self.body = body
        let repeatMs = repeating.map { max(1, $0.milliseconds) } ?? 0
        uv_timer_start(timer, timerDidFire, delay.milliseconds, repeatMs)
    }

    /// Disarms the timer; it can be started again.
    public func stop() {
        guard !isClosing else { return }
        uv_timer_stop(timer)
        body = nil
    }

    /// Disarms and closes the timer for good.
    public func cancel() { close() }

    func closeAfterFiring() { closesAfterFiring = true }

    override func willClose() {
        uv_timer_stop(timer)
        body = nil
    }

    override func didClose() {
        let onClose = self.onClose
        self.onClose = nil
        onClose?()
    }

    fileprivate func fire() {
        let body = self.body
        if closesAfterFiring { close() }
        body?()
    }
}

private func timerDidFire(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    (LoopHandle.owner(of: timer.map(UnsafeMutableRawPointer.init)) as? TimerHandle)?.fire()
}

extension Duration {
    /// Whole milliseconds, rounded up so a short positive delay never becomes zero.
    var milliseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1000)
        if overflow { return .max }
        let fraction = UInt64((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        return whole.addingReportingOverflow(fraction).overflow ? .max : whole + fraction
    }
}
