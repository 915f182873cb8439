import CLibUV

/// The base of every libuv handle wrapper, enforcing the handle lifecycle:
/// init → start → stop → `uv_close(cb)`.
///
/// The handle's memory is allocated here and freed only in the close callback. While the
/// handle is open libuv holds a retained reference to this object in `handle.data`, so the
/// wrapper cannot go away under a pending callback. All methods run on the loop's thread.
public class LoopHandle {
    /// The loop this handle belongs to.
    // `unowned(unsafe)`: a handle lives on its loop and closes before the loop goes, and a
    // checked `unowned` costs a strong retain and release at every use on the hot path.
    public unowned(unsafe) let loop: EventLoop
    let rawHandle: UnsafeMutableRawPointer
    // `@exclusivity(unchecked)`: loop thread only, plain stores.
    @exclusivity(unchecked) private var isOpen = false
    /// True once `close()` was called (the handle must not be started again).
    @exclusivity(unchecked) public private(set) var isClosing = false
    /// True once the close callback ran and the memory is gone.
    @exclusivity(unchecked) public private(set) var isClosed = false

    init(loop: EventLoop, type: uv_handle_type) {
        self.loop = loop
        let size = uv_handle_size(type)
        rawHandle = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        rawHandle.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    }

    var uvHandle: UnsafeMutablePointer<uv_handle_t> { rawHandle.assumingMemoryBound(to: uv_handle_t.self) }

    /// Completes construction after the type-specific `uv_*_init`; frees the memory when it failed.
    func finishInit(status: Int32, operation: String) throws {
        guard status >= 0 else {
            rawHandle.deallocate()
            isClosing = true
            isClosed = true
            throw EventLoopError(status, operation)
        }
        isOpen = true
        uvHandle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        LiveCounts.handleOpened()
        loop.handleOpened()
    }

    /// Stops the handle and hands it to `uv_close`; the memory is freed in the close callback.
    /// Calling it again is harmless.
    public func close() {
        guard isOpen, !isClosing else { return }
        isClosing = true
        willClose()
        uv_close(uvHandle, loopHandleDidClose)
    }

    /// Hook for subclasses: runs just before `uv_close`.
    func willClose() {}

    /// Hook for subclasses: runs in the close callback, before the memory is freed.
    func didClose() {}

    fileprivate func finishClose() {
        didClose()
        isClosed = true
        rawHandle.deallocate()
        LiveCounts.handleClosed()
        loop.handleClosed()
    }

    /// The wrapper stored in a libuv handle's `data`, without changing its retain count.
    static func owner(of handle: UnsafeMutableRawPointer?) -> LoopHandle? {
        guard let handle,
              let data = handle.assumingMemoryBound(to: uv_handle_t.self).pointee.data else { return nil }
        return Unmanaged<LoopHandle>.fromOpaque(data).takeUnretainedValue()
    }
}

private func loopHandleDidClose(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle, let data = handle.pointee.data else { return }
    handle.pointee.data = nil
    // Balances the retain taken in finishInit: the wrapper may be freed after this.
    let owner = Unmanaged<LoopHandle>.fromOpaque(data).takeRetainedValue()
    owner.finishClose()
}
