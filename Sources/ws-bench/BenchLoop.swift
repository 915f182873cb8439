import CLibUV

/// The client's single libuv loop, its shared read buffer and its timers.
/// Everything in ws-bench runs on the thread that calls `run()`.
final class BenchLoop {
    let loop: UnsafeMutablePointer<uv_loop_t>
    /// One read buffer for every connection: each read is handled before the next.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Open timers; one-shot timers leave this set when they have fired.
    private var timers: [ObjectIdentifier: BenchTimer] = [:]

    init() throws(BenchError) {
        loop = .allocate(capacity: 1)
        guard uv_loop_init(loop) == 0 else { throw BenchError.failed("uv_loop_init failed") }
        readBuffer = .allocate(byteCount: 256 * 1024, alignment: 16)
        loop.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        readBuffer.deallocate()
        loop.deallocate()
    }

    /// Nanoseconds on a monotonic clock.
    var now: UInt64 { uv_hrtime() }

    /// Runs until no handle is left open (or `stop()`).
    func run() {
        uv_run(loop, UV_RUN_DEFAULT)
    }

    func stop() { uv_stop(loop) }

    /// Runs `body` once after `seconds`; `repeatEvery` makes it periodic.
    @discardableResult
    func schedule(after seconds: Double, repeatEvery: Double? = nil, _ body: @escaping () -> Void) -> BenchTimer {
        let timer = BenchTimer(loop: self, repeats: repeatEvery != nil, body: body)
        timers[ObjectIdentifier(timer)] = timer
        timer.start(after: seconds, repeatEvery: repeatEvery)
        return timer
    }

    /// Closes every timer (the loop ends once connections are closed too).
    func closeTimers() {
        for timer in timers.values { timer.close() }
        timers.removeAll()
    }

    fileprivate func forget(_ timer: BenchTimer) {
        timers[ObjectIdentifier(timer)] = nil
    }
}

/// A uv timer running a closure; closed with `close()` (memory freed in the close callback).
final class BenchTimer {
    private let handle: UnsafeMutablePointer<uv_timer_t>
    private let body: () -> Void
    private let repeats: Bool
    private weak var owner: BenchLoop?
    private var closed = false

    fileprivate init(loop: BenchLoop, repeats: Bool, body: @escaping () -> Void) {
        self.body = body
        self.repeats = repeats
        owner = loop
        handle = .allocate(capacity: 1)
        uv_timer_init(loop.loop, handle)
        // The handle holds a reference until its close callback.
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    fileprivate func start(after seconds: Double, repeatEvery: Double?) {
        let delay = UInt64(max(0, seconds * 1000))
        let period = repeatEvery.map { UInt64(max(1, $0 * 1000)) } ?? 0
        uv_timer_start(handle, benchTimerFired, delay, period)
    }

    fileprivate func fire() {
        body()
        if !repeats {
            close()
            owner?.forget(self)
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        uv_timer_stop(handle)
        handle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, benchTimerClosed) }
    }
}

private func benchTimerFired(_ handle: UnsafeMutablePointer<uv_timer_t>?) {
    guard let data = handle?.pointee.data else { return }
    Unmanaged<BenchTimer>.fromOpaque(data).takeUnretainedValue().fire()
}

private func benchTimerClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle, let data = handle.pointee.data else { return }
    Unmanaged<BenchTimer>.fromOpaque(data).release()
    handle.withMemoryRebound(to: uv_timer_t.self, capacity: 1) { $0.deallocate() }
}
