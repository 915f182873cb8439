/// The application side of one WebSocket connection. Every call comes on the connection's
/// loop thread; `webSocketDidClose` comes exactly once, whatever ended the connection.
public protocol WebSocketHandler: AnyObject {
    /// The handshake completed; the connection can send. `request` is the upgrade request;
    /// the connection does not keep it, so take what you need of it now.
    func webSocketDidOpen(_ connection: WebSocketConnection, request: HTTPRequestHead)
    /// A complete, valid UTF-8 text message arrived.
    func webSocket(_ connection: WebSocketConnection, didReceiveText text: String)
    /// The same message as bytes, valid only during the call. The default makes a String
    /// and calls `webSocket(_:didReceiveText:)`; override to avoid that copy.
    func webSocket(_ connection: WebSocketConnection, didReceiveTextBytes bytes: UnsafeRawBufferPointer)
    /// A complete binary message (only with `acceptsBinaryMessages`), valid only during the call.
    /// The default closes the connection with 1003.
    func webSocket(_ connection: WebSocketConnection, didReceiveBinary bytes: UnsafeRawBufferPointer)
    /// The connection is closed (close handshake, protocol error, timeout, peer gone or shutdown).
    func webSocketDidClose(_ connection: WebSocketConnection)
}

/// Defaults for the optional handler methods.
public extension WebSocketHandler {
    func webSocket(_ connection: WebSocketConnection, didReceiveTextBytes bytes: UnsafeRawBufferPointer) {
        webSocket(connection, didReceiveText: String(decoding: bytes, as: UTF8.self))
    }

    func webSocket(_ connection: WebSocketConnection, didReceiveBinary bytes: UnsafeRawBufferPointer) {
        connection.close(code: 1003, reason: "binary messages are not supported")
    }
}
