import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A Linux timerfd in the loop's poll: it wakes the loop at an instant in nanoseconds (the
/// clock of `uv_hrtime`), where a `uv_timer_t` counts whole milliseconds from the turn's
/// start and so ends a 1 ms delay up to 2 ms after it began. Belongs to the loop, like
/// `LoopOwnTimer`: not counted among the open handles, closed by its owner in `stop()`, its
/// `data` its owner, unretained. Loop thread only.
struct LoopInstantTimer {
    private let poll: UnsafeMutablePointer<uv_poll_t>
    private let descriptor: Int32

    init(loop: UnsafeMutablePointer<uv_loop_t>) throws {
        descriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { throw EventLoopError(-errno, "timerfd_create") }
        poll = .allocate(capacity: 1)
        let status = uv_poll_init(loop, poll, descriptor)
        guard status == 0 else {
            Glibc.close(descriptor)
            poll.deallocate()
            throw EventLoopError(status, "uv_poll_init on a timerfd")
        }
    }

    private var handle: UnsafeMutablePointer<uv_handle_t> {
        UnsafeMutableRawPointer(poll).assumingMemoryBound(to: uv_handle_t.self)
    }

    /// Names the object the callback finds in `data` and starts watching the timer: `callback`
    /// runs once it expires, and again on every turn until `arm(at:)` or `disarm()`.
    func start(owner: AnyObject, _ callback: @escaping uv_poll_cb) {
        poll.pointee.data = Unmanaged.passUnretained(owner).toOpaque()
        uv_poll_start(poll, Int32(UV_READABLE.rawValue), callback)
    }

    /// Arms the timer for `instant`, replacing any earlier setting and any expiry not yet
    /// handled; an instant already past expires at once.
    func arm(at instant: UInt64) {
        var setting = itimerspec()
        setting.it_value.tv_sec = Int(instant / 1_000_000_000)
        // An all-zero setting disarms: the earliest instant is 1 ns.
        setting.it_value.tv_nsec = max(Int(instant % 1_000_000_000), instant == 0 ? 1 : 0)
        timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }

    /// Stops the timer and clears an expiry not yet handled.
    func disarm() {
        var setting = itimerspec()
        timerfd_settime(descriptor, 0, &setting, nil)
    }

    /// Nanoseconds until the timer expires, from the kernel; nil when it is not armed.
    var remainingNanoseconds: UInt64? {
        var setting = itimerspec()
        guard timerfd_gettime(descriptor, &setting) == 0 else { return nil }
        let remaining = UInt64(setting.it_value.tv_sec) * 1_000_000_000 + UInt64(setting.it_value.tv_nsec)
        return remaining == 0 ? nil : remaining
    }

    /// Closes the timer. libuv takes the descriptor out of its poll in `uv_close`, so it is
    /// closed right after; the handle's memory is freed in the close callback.
    func close() {
        uv_close(handle) { handle in handle?.deallocate() }
        Glibc.close(descriptor)
    }

    /// The owner of the timer a callback received.
    static func owner<Owner: AnyObject>(of poll: UnsafeMutablePointer<uv_poll_t>?, as type: Owner.Type) -> Owner? {
        guard let data = poll?.pointee.data else { return nil }
        return Unmanaged<Owner>.fromOpaque(data).takeUnretainedValue()
    }
}
