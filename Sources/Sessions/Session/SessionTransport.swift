/// What a session needs from its connection: the WebSocket connection in production
/// (see `Session+WebSocket.swift`), a recording fake in tests. `isOnOwnerThread` and
/// `executeOnOwnerThread` are called from any thread. The connection is its one conformer in
/// this module, so the compiler calls it directly (`OfflineSession` has no transport for that).
protocol SessionTransport: AnyObject {
    /// Queues one text message; called on the owner thread only.
    func send(text: String)
    /// Queues one text message given as valid UTF-8 (read during the call only); called on
    /// the owner thread only.
    func send(textBytes: UnsafeRawBufferPointer)
    /// Starts closing the connection; called on the owner thread only.
    func close(code: UInt16, reason: String)
    /// Whether the caller runs on the thread that owns the connection (its event loop).
    var isOnOwnerThread: Bool { get }
    /// Runs `work` on the owner thread; callable from any thread.
    func executeOnOwnerThread(_ work: @escaping @Sendable () -> Void)
}

extension SessionTransport {
    /// Through `send(text:)`, for a transport without a bytes path (a test's fake).
    func send(textBytes: UnsafeRawBufferPointer) {
        send(text: String(decoding: textBytes, as: UTF8.self))
    }
}
