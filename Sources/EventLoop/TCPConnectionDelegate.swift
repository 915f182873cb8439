/// Receives a connection's events on the loop thread.
public protocol TCPConnectionDelegate: AnyObject {
    /// Bytes arrived. They live in the loop's shared read buffer: copy what must outlive the call.
    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer)
    /// The peer finished sending (FIN). Reading has stopped; writing still works.
    func connectionDidReachEOF(_ connection: TCPConnection)
    /// The connection is closed and its memory freed; called exactly once.
    func connectionDidClose(_ connection: TCPConnection)
    /// Unsent output fell back to the low-water mark after backpressure paused reading.
    func connectionDidDrain(_ connection: TCPConnection)
    /// The deadline set with `setDeadline(after:)` passed.
    func connectionDeadlinePassed(_ connection: TCPConnection)
    /// A read or write failed (the peer reset the connection, say); the connection closes next.
    func connection(_ connection: TCPConnection, didFail error: EventLoopError)
}

/// Defaults for the optional delegate methods.
public extension TCPConnectionDelegate {
    func connectionDidDrain(_ connection: TCPConnection) {}
    func connectionDeadlinePassed(_ connection: TCPConnection) {}
    func connection(_ connection: TCPConnection, didFail error: EventLoopError) {}
}
