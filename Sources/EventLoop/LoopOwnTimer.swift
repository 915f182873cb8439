import CLibUV

/// A libuv timer that belongs to the loop itself (the connections' deadlines, the heap
/// trim), not a `LoopHandle`: it is not counted among the open handles, and its owner must
/// close it in `EventLoop.stop()` before the loop closes the remaining handles (whose `data`
/// it reads as a `LoopHandle`). Its `data` is its owner, unretained.
struct LoopOwnTimer {
    private let timer: UnsafeMutablePointer<uv_timer_t>

    init(loop: UnsafeMutablePointer<uv_loop_t>) {
        timer = .allocate(capacity: 1)
        uv_timer_init(loop, timer)
    }

    private var handle: UnsafeMutablePointer<uv_handle_t> {
        UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self)
    }

    /// Names the object the callback finds in `data`; call once, from the owner's init.
    func setOwner(_ owner: AnyObject) {
        timer.pointee.data = Unmanaged.passUnretained(owner).toOpaque()
    }

    /// Lets the loop end while the timer is armed.
    func unref() { uv_unref(handle) }

    /// Arms the timer once, `milliseconds` from the loop's cached time.
    func start(after milliseconds: UInt64, _ callback: @escaping uv_timer_cb) {
        uv_timer_start(timer, callback, milliseconds, 0)
    }

    /// Closes the timer; its memory is freed in the close callback.
    func close() {
        uv_close(handle) { handle in handle?.deallocate() }
    }

    /// The owner of the timer a callback received.
    static func owner<Owner: AnyObject>(of timer: UnsafeMutablePointer<uv_timer_t>?, as type: Owner.Type) -> Owner? {
        guard let data = timer?.pointee.data else { return nil }
        return Unmanaged<Owner>.fromOpaque(data).takeUnretainedValue()
    }
}
