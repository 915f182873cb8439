import CLibUV

/// The monotonic clock of the loop's timers (libuv's `uv_hrtime`, `CLOCK_MONOTONIC`) in
/// nanoseconds. The sessions' ages, rate limits and latencies read it too: one call, where
/// `DispatchTime.now()` went through libdispatch's conversions (about 90 instructions more).
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary start; never goes back.
    public static func nanoseconds() -> UInt64 {
        uv_hrtime()
    }
}
