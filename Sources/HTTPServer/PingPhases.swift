/// Where in the ping interval each new WebSocket's heartbeat falls.
///
/// A connection's pings keep the cadence of its first one, so connections opened together
/// (a burst of clients, everyone reconnecting after a restart) would be pinged together at
/// every interval for as long as they live: with a million sessions on one machine those
/// waves of pings and pongs filled both cores for seconds and queued every message behind
/// them. The first ping instead comes after a fraction of the interval taken from a golden
/// ratio sequence, so the connections of any burst spread evenly over the whole interval.
struct PingPhases {
    /// Advances by 2⁶⁴ over the golden ratio per connection: its fractional steps never
    /// bunch, however many connections there are.
    private var phase: UInt64 = 0

    /// The delay before a new connection's first ping: between 1 ms and `interval`.
    mutating func firstPingDelay(interval: UInt64) -> UInt64 {
        phase &+= 0x9E37_79B9_7F4A_7C15
        // interval × phase / 2⁶⁴, in [0, interval).
        let offset = interval.multipliedFullWidth(by: phase).high
        return max(1, interval - offset)
    }
}
