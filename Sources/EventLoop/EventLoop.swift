import CLibUV
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One libuv loop, driven by one thread.
///
/// Every handle of a loop is created and used on the loop's thread (the thread that created
/// the loop until `run()` is called, then the thread inside `run()`). Other threads hand work
/// to the loop with `execute(_:)`, which wakes it through `uv_async`. A creator that hands the
/// loop to another thread's `run()` must stop touching it directly until work it `execute`s
/// has run: before that, both threads count as the loop's.
// @unchecked Sendable: mutable state is touched only on the loop thread; cross-thread entry
// points (`execute`, `inEventLoop`) use a Mutex and an Atomic.
public final class EventLoop: @unchecked Sendable {
    let uvLoop: UnsafeMutablePointer<uv_loop_t>
    @usableFromInline let ownerThread: Atomic<UInt>
    private var wakeUp: WakeUpHandle!
    private var stopping = false
    private var openHandles = 0
    /// The shared read buffer: libuv fills it right before each read callback, which
    /// consumes it synchronously, so one buffer serves every connection of the loop.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Where a connection's filter (TLS) puts what it decodes from the read buffer: apart
    /// from it, so the filter can read its input in place. One TLS record's plaintext fits.
    let filterBuffer: UnsafeMutableRawBufferPointer
    /// Free output chunks for the connections' write queues.
    let chunkPool = OutputChunkPool()
    /// Where the connection handling a read gathers its answers (see `CorkBuffer`). Behind a
    /// pointer, so a write reaches it without retaining the loop.
    let cork: UnsafeMutablePointer<CorkBuffer>
    /// The `uv_buf_t` array a connection's `flush()` fills for `uv_write`, shared by the loop's
    /// connections: `uv_write` copies the array into its request before returning.
    let writeBuffers: UnsafeMutablePointer<uv_buf_t>
    /// Free write requests for the connections' in-flight writes.
    let writeRequests = WriteRequestPool()
    /// Connections that acceptors handed to this loop and that are not closing yet: what an
    /// acceptor compares to pick the loop with the fewest.
    let acceptedOpen = OpenConnectionCount()
    /// The connections' deadlines, on one timer.
    let deadlines: ConnectionDeadlines
    /// Returns the heap to the system after a burst of closed connections.
    let heapTrimmer: HeapTrimmer
    /// Timed tasks (`schedule(_:after:)`), on one timer.
    let timers: LoopTimerQueue

    /// Size of the loop's shared read buffer.
    public static let readBufferSize = 64 * 1024
    /// Size of the loop's filter buffer: a TLS 1.3 record's body less its tag (16 KiB of
    /// plaintext, its content type and up to 239 bytes of padding) opens into it whole.
    static let filterBufferSize = 16 * 1024 + 256

    /// Creates and initializes the loop on the calling thread.
    public init() throws {
        uvLoop = .allocate(capacity: 1)
        let status = uv_loop_init(uvLoop)
        if status < 0 {
            uvLoop.deallocate()
            throw EventLoopError(status, "uv_loop_init")
        }
        ownerThread = Atomic(UInt(pthread_self()))
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        filterBuffer = .allocate(byteCount: Self.filterBufferSize, alignment: 16)
        writeBuffers = .allocate(capacity: WriteQueue.maxBuffersPerWrite)
        cork = .allocate(capacity: 1)
        cork.initialize(to: CorkBuffer())
        deadlines = ConnectionDeadlines(loop: uvLoop)
        heapTrimmer = HeapTrimmer(loop: uvLoop)
        timers = try LoopTimerQueue(loop: uvLoop)
        wakeUp = try WakeUpHandle(loop: self)
    }

    deinit {
        // A loop dropped without stop() + run() still has open handles pointing at it:
        // its memory is then left to them rather than freed under them.
        if uv_loop_close(uvLoop) == 0 { uvLoop.deallocate() }
        readBuffer.deallocate()
        filterBuffer.deallocate()
        cork.pointee.deallocate()
        cork.deinitialize(count: 1)
        cork.deallocate()
        writeBuffers.deallocate()
    }

    /// True on the loop's thread.
    /// Inlinable: a session asks it for every output, through two connections.
    @inlinable public var inEventLoop: Bool { ownerThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Number of this loop's open handles (the wake-up handle included until `stop()`).
    public var handleCount: Int { openHandles }

    func handleOpened() { openHandles += 1 }
    func handleClosed() { openHandles -= 1 }

    /// Runs the loop on the calling thread until `stop()` was called and every handle closed.
    public func run() {
        ownerThread.store(UInt(pthread_self()), ordering: .relaxed)
        let previous = pthread_getspecific(Self.currentKey)
        pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.currentKey, previous) }
        uv_run(uvLoop, UV_RUN_DEFAULT)
    }

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The loop running on the calling thread (inside its `run()`), if any.
    public static var current: EventLoop? {
        guard let pointer = pthread_getspecific(currentKey) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Ends the loop: closes the wake-up handle and every handle still open, so `run()`
    /// returns once their close callbacks ran. From another thread it is forwarded to the loop.
    public func stop() {
        guard inEventLoop else {
            execute { [self] in stop() }
            return
        }
        guard !stopping else { return }
        stopping = true
        wakeUp.drain()
        deadlines.close()
        timers.close()
        heapTrimmer.close()
        closeAllHandles()
    }

    /// True once `stop()` ran.
    public var isStopping: Bool { stopping }

    private func closeAllHandles() {
        var owners: [LoopHandle] = []
        withUnsafeMutablePointer(to: &owners) { list in
            uv_walk(uvLoop, { handle, context in
                guard let handle, uv_is_closing(handle) == 0,
                      let owner = LoopHandle.owner(of: UnsafeMutableRawPointer(handle)) else { return }
                context!.assumingMemoryBound(to: [LoopHandle].self).pointee.append(owner)
            }, list)
        }
        for owner in owners { owner.close() }
    }

    /// Runs `work` on the loop thread, in the order queued; callable from any thread,
    /// including the loop's own (then it runs on a later turn). Work queued after `stop()`
    /// is dropped.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        wakeUp.enqueue(work)
    }

    /// `execute`, telling whether the loop took the work (false once it is stopping), so a
    /// caller handing over a resource (an accepted socket) can release it itself.
    func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        wakeUp.enqueue(work)
    }

    /// Runs `body` once after `delay`, or every `repeating` after that; returns the timer so
    /// the caller can `cancel()` it. Loop thread only.
    @discardableResult
    public func scheduleTimer(after delay: Duration, repeating: Duration? = nil,
                              _ body: @escaping () -> Void) throws -> TimerHandle {
        let timer = try TimerHandle(loop: self)
        if repeating == nil { timer.closeAfterFiring() }
        timer.start(after: delay, repeating: repeating, body)
        return timer
    }

    /// Runs `task.timerFired()` once, `nanoseconds` from now or later (never earlier: see
    /// `LoopTimerQueue`), on the loop's shared timer, unless `cancel(_:)` comes first. Returns
    /// false, leaving the task unscheduled, once the loop stops or if the task is scheduled
    /// already. Loop thread only.
    @discardableResult
    public func schedule(_ task: LoopTimerTask, afterNanoseconds nanoseconds: Int64) -> Bool {
        timers.schedule(task, afterNanoseconds: nanoseconds)
    }

    /// Unschedules `task` if it waits on this loop. Loop thread only.
    public func cancel(_ task: LoopTimerTask) {
        timers.cancel(task)
    }

    /// Tasks waiting for their time (`schedule(_:after:)`). Loop thread only.
    public var scheduledTaskCount: Int { timers.count }

    /// Watches `signal` (e.g. SIGTERM); `body` runs on the loop thread. Loop thread only.
    @discardableResult
    public func onSignal(_ signal: Int32, _ body: @escaping () -> Void) throws -> SignalHandle {
        try SignalHandle(loop: self, signal: signal, body)
    }

    /// Milliseconds of the loop's cached clock (`uv_now`).
    public var nowMilliseconds: UInt64 { uv_now(uvLoop) }
}
