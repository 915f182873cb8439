import CLibUV

extension EventLoop {
    /// The loop's TCP connections that are open and not closing, found by walking libuv's
    /// list of the loop's handles (`uv_walk`). For rare whole-loop work, such as a server's
    /// drain: no table has to follow every connection for it. Loop thread only.
    public func openConnections() -> [TCPConnection] {
        var found: [TCPConnection] = []
        withUnsafeMutablePointer(to: &found) { found in
            uv_walk(uvLoop, { handle, context in
                // Every handle we open carries its retained `LoopHandle`; a TCP handle's is a
                // connection or an acceptor, and one not yet set up has none.
                guard let handle, let context, uv_handle_get_type(handle) == UV_TCP,
                      let data = handle.pointee.data,
                      let connection = Unmanaged<LoopHandle>.fromOpaque(data).takeUnretainedValue() as? TCPConnection,
                      !connection.isClosing else { return }
                context.assumingMemoryBound(to: [TCPConnection].self).pointee.append(connection)
            }, found)
        }
        return found
    }
}
