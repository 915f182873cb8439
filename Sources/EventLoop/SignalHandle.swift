import CLibUV

/// A libuv signal watcher: `body` runs on the loop thread each time the process gets the signal.
public final class SignalHandle: LoopHandle {
    private var body: (() -> Void)?
    /// The signal number watched.
    public let signalNumber: Int32

    init(loop: EventLoop, signal: Int32, _ body: @escaping () -> Void) throws {
        signalNumber = signal
        super.init(loop: loop, type: UV_SIGNAL)
        try finishInit(status: uv_signal_init(loop.uvLoop, handle), operation: "uv_signal_init")
        self.body = body
        let status = uv_signal_start(handle, signalDidArrive, signal)
        if status < 0 {
            close()
            throw EventLoopError(status, "uv_signal_start(\(signal))")
        }
    }

    private var handle: UnsafeMutablePointer<uv_signal_t> { rawHandle.assumingMemoryBound(to: uv_signal_t.self) }

    /// Stops watching and closes the handle.
    public func cancel() { close() }

    override func willClose() {
        uv_signal_stop(handle)
        body = nil
    }

    fileprivate func deliver() { body?() }
}

private func signalDidArrive(_ handle: UnsafeMutablePointer<uv_signal_t>?, _ signum: Int32) {
    (LoopHandle.owner(of: handle.map(UnsafeMutableRawPointer.init)) as? SignalHandle)?.deliver()
}
