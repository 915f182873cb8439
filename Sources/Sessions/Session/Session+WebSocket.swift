import EventLoop
import HTTPServer

/// A session is its connection's handler: the route factory makes one per upgrade, the open
/// sets the connection as its transport and opens it, every text message is fed to it
/// straight from the frame's bytes, and the close closes it exactly once. So a session costs
/// its connection no object between the two.
extension Session: WebSocketHandler {
    func webSocketDidOpen(_ connection: WebSocketConnection, request: HTTPRequestHead) {
        // Refused after the upgrade rather than before, so a browser sees why (the close
        // reason); the handshake status of a refused upgrade is hidden from scripts.
        guard endpoint.admits(query: request.query) else {
            connection.close(code: 1008, reason: "this endpoint needs the admin token")
            return
        }
        // `X-Forwarded-For` is read only when some proxy is trusted: the look-up cost each
        // session about 280 instructions, and without one the peer's address is the answer,
        // left unwritten until a service reads it.
        let proxies = endpoint.configuration.trustedProxies
        let peer = connection.peerIPAddress ?? PeerAddress("")
        let address = proxies.isEmpty ? peer : PeerAddress(ClientAddress.resolve(
            peer: peer.text, forwardedFor: request.headers(named: "x-forwarded-for"), trustedProxies: proxies))
        transport = connection
        open(client: address)
    }

    func webSocket(_ connection: WebSocketConnection, didReceiveText text: String) {
        receive(text)
    }

    func webSocket(_ connection: WebSocketConnection, didReceiveTextBytes bytes: UnsafeRawBufferPointer) {
        receive(utf8: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// The connection drops its reference to the session here, which ends their cycle.
    func webSocketDidClose(_ connection: WebSocketConnection) {
        close()
    }
}

extension Session {
    /// The connection the session writes to. Kept as one word (`transportObject`), its
    /// conformance told by its class: a `WebSocketConnection`, every served session's, is
    /// called directly, and any other conformer (a test's fake) is found by a cast.
    var transport: (any SessionTransport)? {
        @inline(__always) get {
            guard let object = transportObject else { return nil }
            if transportIsWebSocket {
                return unsafeDowncast(object, to: WebSocketConnection.self)
            }
            return object as? any SessionTransport
        }
        set {
            transportObject = newValue.map { $0 as AnyObject }
            transportIsWebSocket = Self.isWebSocket(transportObject)
        }
    }

    static func isWebSocket(_ object: AnyObject?) -> Bool {
        object.map { type(of: $0) == WebSocketConnection.self } ?? false
    }

    /// The transport when it is a `WebSocketConnection`, for the output path to call it
    /// directly: told by a flag, which costs less than comparing the class (its metadata
    /// accessor is a call).
    var webSocketTransport: WebSocketConnection? {
        @inline(__always) get {
            guard transportIsWebSocket, let object = transportObject else { return nil }
            return unsafeDowncast(object, to: WebSocketConnection.self)
        }
    }
}

/// The connection is the session's transport; its loop is the owner thread.
extension WebSocketConnection: SessionTransport {
    var isOnOwnerThread: Bool { inEventLoop }

    func executeOnOwnerThread(_ work: @escaping @Sendable () -> Void) {
        eventLoop.execute(work)
    }
}
