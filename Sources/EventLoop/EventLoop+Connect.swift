import CLibUV

extension EventLoop {
    /// Opens a TCP connection to `host:port` (an IPv4 or IPv6 literal, or a name resolved now,
    /// blocking the loop). Returns the connection at once, still connecting: set its delegate
    /// (and filter) now, and close it to give up. `completion` runs once on the loop thread: with
    /// nil when connected (start reading and write from there on), or with the error, after
    /// which the connection closes and its delegate hears `connectionDidClose`. Loop thread only.
    /// - Throws: `EventLoopError` when the address is unusable or the connect cannot start
    ///   (no connection is left open then).
    public func connect(to host: String, port: Int,
                        completion: @escaping (EventLoopError?) -> Void) throws -> TCPConnection {
        let what = "connect to \(host):\(port)"
        let address = try SocketAddress(loop: uvLoop, host: host, port: port, operation: what)
        let connection = try TCPConnection(loop: self)
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        // The request owns the pending connect until its callback, which always comes (with
        // ECANCELED when the connection closes first).
        let pending = Unmanaged.passRetained(PendingConnect(connection: connection, operation: what, completion: completion))
        request.pointee.data = pending.toOpaque()
        let status = address.withSocketAddress { uv_tcp_connect(request, connection.tcp, $0, connectDidFinish) }
        guard status >= 0 else {
            pending.release()
            request.deallocate()
            connection.close()
            throw EventLoopError(status, what)
        }
        return connection
    }
}

/// A connect in flight: the connection and who hears how it went.
private final class PendingConnect {
    let connection: TCPConnection
    let operation: String
    let completion: (EventLoopError?) -> Void

    init(connection: TCPConnection, operation: String, completion: @escaping (EventLoopError?) -> Void) {
        self.connection = connection
        self.operation = operation
        self.completion = completion
    }

    func finish(status: Int32) {
        if status >= 0 && !connection.isClosing {
            connection.didEstablish()
            completion(nil)
        } else {
            completion(EventLoopError(status < 0 ? status : UV_ECANCELED.rawValue, operation))
            connection.close()
        }
    }
}

private func connectDidFinish(_ request: UnsafeMutablePointer<uv_connect_t>?, _ status: Int32) {
    guard let request, let data = request.pointee.data else { return }
    request.deallocate()
    Unmanaged<PendingConnect>.fromOpaque(data).takeRetainedValue().finish(status: status)
}
