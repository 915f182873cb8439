import EventLoop
import HTTPServer

/// Binds one WebSocket connection to one `Session`: created per upgrade by the route
/// factory, it opens the session with the connection, feeds it every text message
/// straight from the frame's bytes, and closes it exactly once. It is also the session's
/// transport, so a session costs the connection one object here, not two.
// @unchecked Sendable: the connection is used on its loop thread only; `endpoint.eventLoop` is thread-safe.
final class SessionWebSocketHandler: WebSocketHandler, SessionTransport, @unchecked Sendable {
    private let endpoint: SessionEndpoint
    private var session: Session?
    /// Set while open; cleared at the close, which breaks the connection <-> handler cycle.
    private var connection: WebSocketConnection?

    init(endpoint: SessionEndpoint) {
        self.endpoint = endpoint
    }

    func webSocketDidOpen(_ connection: WebSocketConnection, request: HTTPRequestHead) {
        // Refused after the upgrade rather than before, so a browser sees why (the close
        // reason); the handshake status of a refused upgrade is hidden from scripts.
        guard endpoint.admits(query: request.query) else {
            connection.close(code: 1008, reason: "this endpoint needs the admin token")
            return
        }
        self.connection = connection
        let address = ClientAddress.resolve(
            peer: connection.peerAddress ?? "", forwardedFor: request.headers(named: "x-forwarded-for"),
            trustedProxies: endpoint.configuration.trustedProxies)
        let session = Session(endpoint: endpoint, transport: self, clientAddress: address)
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
        // Drops the session and its graph, breaking the session <-> handler cycle.
        session = nil
        self.connection = nil
    }

    // MARK: SessionTransport

    func send(text: String) {
        connection?.send(text: text)
    }

    func close(code: UInt16, reason: String) {
        connection?.close(code: code, reason: reason)
    }

    var isOnOwnerThread: Bool { endpoint.eventLoop?.inEventLoop ?? true }

    func executeOnOwnerThread(_ work: @escaping @Sendable () -> Void) {
        guard let loop = endpoint.eventLoop else { return work() }
        loop.execute(work)
    }
}
