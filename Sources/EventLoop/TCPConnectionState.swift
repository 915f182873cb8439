extension TCPConnection {
    /// Where a connection's reading stands. `TCPConnection.moveReading` is the only place it
    /// changes, and the only place libuv's reading starts or stops.
    enum ReadState: UInt8 {
        /// The socket has no peer yet (being connected); nothing is counted or read.
        case unconnected
        /// Established; the delegate has not asked for reads.
        case notStarted
        /// libuv delivers reads.
        case reading
        /// Reads are wanted but stopped: the output is above the high-water mark (or libuv
        /// refused to start, and the next change of the output tries again).
        case stopped
        /// The peer sent FIN: nothing more is read.
        case peerFinished

        /// What happens to the read side.
        enum Event {
            /// The socket got its peer (accepted or connected).
            case established
            /// The delegate asked for reads (`startReading`), or `finish()` waits for the peer's FIN.
            case wanted
            /// Backpressure paused or resumed.
            case outputChanged
            /// The peer's FIN arrived.
            case peerFinished
        }

        /// The state after `event` when the output `paused` reading; nil when it stays.
        func next(after event: Event, paused: Bool) -> ReadState? {
            let wanted: ReadState = paused ? .stopped : .reading
            switch (self, event) {
            case (.unconnected, .established):
                return .notStarted
            case (.unconnected, _), (.peerFinished, _), (_, .established), (.notStarted, .outputChanged):
                return nil
            case (_, .peerFinished):
                return .peerFinished
            case (.notStarted, .wanted), (.reading, _), (.stopped, _):
                return wanted == self ? nil : wanted
            }
        }
    }

    /// Where a connection's output stands on its way to FIN.
    enum OutputState: UInt8 {
        /// Writes are taken.
        case open
        /// `finish()` ran (or the filter failed): what is queued leaves, then FIN; later writes
        /// are ignored and input is discarded.
        case finishing
        /// FIN is sent; the connection closes at the peer's FIN or after the linger.
        case shutdownSent
    }
}
