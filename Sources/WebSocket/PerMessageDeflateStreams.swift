/// The zlib streams that all connections of one event loop share: one inflater and one
/// deflater per window size, each made on first use and reset before every message.
/// Connections hold only a reference to this, never a stream of their own, so an idle
/// connection costs no zlib memory. Not thread-safe: one per loop thread.
public final class PerMessageDeflateStreams {
    private var sharedInflater: PerMessageInflater?
    private var deflaters: [Int: PerMessageDeflater] = [:]

    /// An empty set: streams are made when first needed.
    public init() {}

    /// The loop's inflater.
    public var inflater: PerMessageInflater {
        if let sharedInflater { return sharedInflater }
        let made = PerMessageInflater()
        sharedInflater = made
        return made
    }

    /// The loop's deflater for a window of `windowBits`.
    public func deflater(windowBits: Int) -> PerMessageDeflater {
        if let existing = deflaters[windowBits] { return existing }
        let made = PerMessageDeflater(windowBits: windowBits)
        deflaters[windowBits] = made
        return made
    }
}
