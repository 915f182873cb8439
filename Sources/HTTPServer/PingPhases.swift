import EventLoop

/// When a loop's WebSockets are pinged: spread over the interval, and gathered into slots.
///
/// A connection's pings keep the cadence of its first one, so connections opened together
/// (a burst of clients, everyone reconnecting after a restart) would be pinged together at
/// every interval for as long as they live: with a million sessions on one machine those
/// waves of pings and pongs filled both cores for seconds and queued every message behind
/// them. The first ping instead comes in the second half of the interval, at a point taken
/// from a golden ratio sequence, so the connections of any burst spread evenly over half the
/// interval (and a short-lived client still sees no ping before half an interval).
///
/// Those first pings still follow the shape of a burst (spread over half an interval, they
/// keep a burst's slow start and fast end), and a connection's cadence kept its first ping's
/// phase: a million sessions opened over 55 s were pinged in waves, 30 s apart. So the second
/// ping, after the first one's pong, comes at a point of a second golden ratio sequence over
/// the whole interval after the first: the phase each connection keeps from then on is spread
/// evenly over the interval whatever the first pings' shape.
///
/// Spread alone, each ping would wake the loop (and its peer) on its own: 20,000 sessions
/// pinged every 30 s are 667 wake-ups a second, and the wake-ups cost more than the pings.
/// So pings fall due only on slot boundaries (200 ms, or a 64th of a short interval), where
/// a loop sends all the slot's pings in one pass and reads their pongs in a few; each loop
/// places its boundaries at a random offset, so servers sharing a host take turns.
struct PingPhases {
    static let longestSlot: UInt64 = 200

    /// Advances by 2⁶⁴ over the golden ratio per connection: its fractional steps never
    /// bunch, however many connections there are.
    private var phase: UInt64 = 0
    /// The same for the second pings (`secondPingDelay`).
    private var cadencePhase: UInt64 = 0
    /// Where this loop's slot boundaries fall, in milliseconds of `longestSlot`.
    private let offset: UInt64

    init(offset: UInt64 = PingPhases.randomOffset()) {
        self.offset = offset
    }

    static func randomOffset() -> UInt64 {
        var bytes: UInt64 = 0
        withUnsafeMutableBytes(of: &bytes) { SystemRandom.fill($0) }
        return bytes % longestSlot
    }

    /// The slot length for `interval`: a 64th of it, at most `longestSlot`, at least 1 ms.
    static func slot(for interval: UInt64) -> UInt64 {
        max(1, min(longestSlot, interval / 64))
    }

    /// The delay before a new connection's first ping, at loop time `now`: in the second half
    /// of the interval (give or take half a slot), ending on a slot boundary.
    mutating func firstPingDelay(interval: UInt64, now: UInt64) -> UInt64 {
        phase &+= 0x9E37_79B9_7F4A_7C15
        // half the interval × phase / 2⁶⁴, in [0, interval / 2).
        let earlier = (interval / 2).multipliedFullWidth(by: phase).high
        return onSlot(max(1, interval - earlier), interval: interval, now: now)
    }

    /// The delay before a connection's second ping, at loop time `now`, `elapsed` after its
    /// first: that ping's time plus a point of the whole interval (plus an interval if the
    /// point is already past), ending on a slot boundary.
    mutating func secondPingDelay(interval: UInt64, sinceFirstPing elapsed: UInt64, now: UInt64) -> UInt64 {
        cadencePhase &+= 0x9E37_79B9_7F4A_7C15
        // interval × phase / 2⁶⁴, in [0, interval).
        let point = interval.multipliedFullWidth(by: cadencePhase).high
        let delay = point > elapsed ? point - elapsed : point + interval - elapsed % interval
        return onSlot(max(1, delay), interval: interval, now: now)
    }

    /// `delay` moved to end on the slot boundary nearest `now + delay` (the next one when the
    /// nearest is not after `now`). A ping fired a little late, in a busy loop, is so due again
    /// on its own boundary an interval later: an interval that is a whole number of slots keeps
    /// a connection's pings on the same boundaries, with no drift.
    func onSlot(_ delay: UInt64, interval: UInt64, now: UInt64) -> UInt64 {
        let slot = Self.slot(for: interval)
        let past = (now &+ delay &+ offset) % slot
        if past == 0 { return delay }
        if past < slot - past, delay > past { return delay - past }
        return delay + (slot - past)
    }
}
