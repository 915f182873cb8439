import CLibUV

/// A listening TCP socket. Each accepted peer becomes a `TCPConnection` handed to the
/// connection callback on the loop thread.
public final class TCPListener: LoopHandle {
    private var onConnection: ((TCPConnection) -> Void)?

    /// An unbound TCP handle on `loop`.
    public init(loop: EventLoop) throws {
        super.init(loop: loop, type: UV_TCP)
        try finishInit(status: uv_tcp_init(loop.uvLoop, tcp), operation: "uv_tcp_init")
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> { rawHandle.assumingMemoryBound(to: uv_tcp_t.self) }

    /// Binds to `host:port` (IPv4 or IPv6 literal, or a name such as `localhost` resolved
    /// now; port 0 picks a free port) and starts listening. Throws `EventLoopError` (e.g.
    /// `isAddressInUse`) when a step fails.
    public func listen(host: String, port: Int, backlog: Int32 = 511,
                       onConnection: @escaping (TCPConnection) -> Void) throws {
        let what = "listen on \(host):\(port)"
        let address = try ListenAddress(loop: loop.uvLoop, host: host, port: port, operation: what)
        try address.withSocketAddress { socketAddress in
            try EventLoopError.check(uv_tcp_bind(tcp, socketAddress, 0), what)
        }
        self.onConnection = onConnection
        let stream = UnsafeMutableRawPointer(tcp).assumingMemoryBound(to: uv_stream_t.self)
        try EventLoopError.check(uv_listen(stream, backlog, listenerDidGetConnection), what)
    }

    /// The bound port (useful after listening on port 0); 0 when unbound.
    public var localPort: Int {
        guard !isClosing else { return 0 }
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutableBytes(of: &storage) { raw in
            uv_tcp_getsockname(tcp, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard status == 0 else { return 0 }
        return withUnsafeBytes(of: &storage) { raw in
            // sin_port and sin6_port sit at the same offset, in network byte order.
            let port = raw.load(fromByteOffset: 2, as: UInt16.self)
            return Int(UInt16(bigEndian: port))
        }
    }

    override func willClose() { onConnection = nil }

    fileprivate func accept() {
        guard let onConnection, !isClosing else { return }
        guard let connection = try? TCPConnection(loop: loop) else { return }
        let server = UnsafeMutableRawPointer(tcp).assumingMemoryBound(to: uv_stream_t.self)
        guard uv_accept(server, connection.stream) == 0 else {
            connection.close()
            return
        }
        connection.didAccept()
        onConnection(connection)
    }
}

private func listenerDidGetConnection(_ server: UnsafeMutablePointer<uv_stream_t>?, _ status: Int32) {
    guard status >= 0 else { return }
    (LoopHandle.owner(of: server.map(UnsafeMutableRawPointer.init)) as? TCPListener)?.accept()
}
