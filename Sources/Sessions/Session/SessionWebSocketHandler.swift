import EventLoop
import HTTPServer

/// Binds one WebSocket connection to one `Session`: created per upgrade by the route
/// factory, it opens the session with the connection, feeds it every text message
/// straight from the frame's bytes, and closes it exactly once.
final class SessionWebSocketHandler: WebSocketHandler {
    private let endpoint: SessionEndpoint
    private var session: Session?

    init(endpoint: SessionEndpoint) {
        self.endpoint = endpoint
    }

    func webSocketDidOpen(_ connection: WebSocketConnection) {
        // Refused after the upgrade rather than before, so a browser sees why (the close
        // reason); the handshake status of a refused upgrade is hidden from scripts.
        guard endpoint.admits(query: connection.request.query) else {
            connection.close(code: 1008, reason: "this endpoint needs the admin token")
            return
        }
        let address = ClientAddress.resolve(
            peer: connection.peerAddress ?? "", forwardedFor: connection.request.headers(named: "x-forwarded-for"),
            trustedProxies: endpoint.configuration.trustedProxies)
        let session = Session(endpoint: endpoint, transport: WebSocketTransport(connection), clientAddress: address)
        self.session = session
        session.open()
    }

    func webSocket(_ connection: WebSocketConnection, didReceiveText text: String) {
        session?.receive(text)
    }

    func webSocket(_ connection: WebSocketConnection, didReceiveTextBytes bytes: UnsafeRawBufferPointer) {
        session?.receive(utf8: bytes.assumingMemoryBound(to: UInt8.self))
    }

    func webSocketDidClose(_ connection: WebSocketConnection) {
        session?.close()
        // Drops the session, its graph and its transport, breaking the connection <-> session cycle.
        session = nil
    }
}

/// A `WebSocketConnection` as a session's transport.
private final class WebSocketTransport: SessionTransport, @unchecked Sendable {  // the connection is used on its loop thread only; `loop` is thread-safe
    private let connection: WebSocketConnection
    private let loop: EventLoop

    init(_ connection: WebSocketConnection) {
        self.connection = connection
        loop = connection.eventLoop
    }

    func send(text: String) {
        connection.send(text: text)
    }

    func close(code: UInt16, reason: String) {
        connection.close(code: code, reason: reason)
    }

    var isOnOwnerThread: Bool { loop.inEventLoop }

    func executeOnOwnerThread(_ work: @escaping @Sendable () -> Void) {
        loop.execute(work)
    }
}
