/// A transformation between a connection's socket bytes and the bytes its delegate reads and
/// writes, such as TLS. `TCPConnection` feeds it what arrives, hands the delegate what it
/// decodes, encodes what the delegate writes at the next flush, and sends what it produces.
/// Loop thread only.
public protocol TCPStreamFilter: AnyObject {
    /// Takes bytes that arrived on the socket and calls `deliver` with each decoded piece, in
    /// order, until it returns false. `bytes` is consumed before `scratch` is written, so the
    /// two may overlap; delivered pieces live in `scratch`.
    /// - Throws: when the stream cannot go on; the connection then sends what the filter still
    ///   produced (an alert, say) and closes.
    func receive(_ bytes: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer,
                 deliver: (UnsafeRawBufferPointer) -> Bool) throws

    /// Encodes bytes the delegate wrote; the result comes out of `readOutput`.
    /// - Throws: when the stream cannot go on; the connection then closes.
    func send(_ bytes: UnsafeRawBufferPointer) throws

    /// Ends the output (TLS: queues close_notify); nothing is sent after it.
    func finishOutput()

    /// True while produced bytes wait for `readOutput`.
    var hasOutput: Bool { get }

    /// Moves produced bytes into `buffer`; returns how many (0 when none are waiting).
    func readOutput(into buffer: UnsafeMutableRawBufferPointer) -> Int
}
