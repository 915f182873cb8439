import CLibUV

/// The base of every libuv handle wrapper, enforcing the handle lifecycle:
/// init → start → stop → `uv_close(cb)`.
///
/// The handle's memory is this object's first field, so a connection is one malloc block,
/// not two: its 248-byte `uv_tcp_t`, the object's header and its fields take a 352-byte block
/// where a 256-byte and a 128-byte one were 384 (`EventLoopLayoutTests`). While the handle is open
/// libuv holds a retained reference to this object in `handle.data`, so neither the wrapper
/// nor the handle's memory can go away before the close callback. All methods run on the
/// loop's thread.
public class LoopHandle {
    /// The libuv handle, written by libuv through `rawHandle` only. Room for the largest
    /// handle wrapped here (`uv_tcp_t`; a timer, async, signal or poll handle is smaller).
    /// Declared first, so it starts right after the object's header (`storageOffset`).
    // `@exclusivity(unchecked)`: Swift never reads or writes it after init, libuv does.
    @exclusivity(unchecked) private var storage = uv_tcp_t()
    /// The loop this handle belongs to.
    // `unowned(unsafe)`: a handle lives on its loop and closes before the loop goes, and a
    // checked `unowned` costs a strong retain and release at every use on the hot path.
    public unowned(unsafe) let loop: EventLoop

    /// Where the first stored field of a class instance starts: after the metadata pointer
    /// and the reference counts (Swift's object header, two words).
    static var storageOffset: Int { 2 * MemoryLayout<UnsafeRawPointer>.size }

    /// The libuv handle's memory (`storage`), computed from the object's address: a stored
    /// pointer to it would cost a word per connection.
    @inline(__always)
    var rawHandle: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque() + LoopHandle.storageOffset
    }
    // `@exclusivity(unchecked)`: loop thread only, plain stores.
    @exclusivity(unchecked) private var isOpen = false
    /// True once `close()` was called (the handle must not be started again).
    @exclusivity(unchecked) public private(set) var isClosing = false
    /// True once the close callback ran and the memory is gone.
    @exclusivity(unchecked) public private(set) var isClosed = false

    init(loop: EventLoop, type: uv_handle_type) {
        self.loop = loop
        precondition(uv_handle_size(type) <= MemoryLayout<uv_tcp_t>.size, "a handle larger than its storage")
        // The layout `rawHandle` relies on (declaration order, the header's size).
        let stored = withUnsafeMutablePointer(to: &storage) { UnsafeMutableRawPointer($0) }
        precondition(stored == rawHandle, "the handle's storage is not where rawHandle points")
    }

    var uvHandle: UnsafeMutablePointer<uv_handle_t> { rawHandle.assumingMemoryBound(to: uv_handle_t.self) }

    /// Completes construction after the type-specific `uv_*_init`; marks the handle closed when
    /// it failed.
    func finishInit(status: Int32, operation: String) throws {
        guard status >= 0 else {
            isClosing = true
            isClosed = true
            throw EventLoopError(status, operation)
        }
        isOpen = true
        uvHandle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        LiveCounts.handleOpened()
        loop.handleOpened()
    }

    /// Stops the handle and hands it to `uv_close`; the object, and with it the handle's
    /// memory, is released in the close callback.
    /// Calling it again is harmless.
    public func close() {
        guard isOpen, !isClosing else { return }
        isClosing = true
        willClose()
        uv_close(uvHandle, loopHandleDidClose)
    }

    /// Hook for subclasses: runs just before `uv_close`.
    func willClose() {}

    /// Hook for subclasses: runs in the close callback, before the object is released.
    func didClose() {}

    fileprivate func finishClose() {
        didClose()
        isClosed = true
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
