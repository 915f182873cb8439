import CLibUV
#if canImport(Glibc)
import Glibc
#endif

// The connection's one deadline on the loop's shared timer heap: the delegate's timeouts, and
// the linger after FIN.
extension TCPConnection {
    /// How long `finish()` waits for the peer's FIN after sending ours (whole milliseconds,
    /// at most 49 days).
    public var lingerTimeout: Duration {
        get { .milliseconds(lingerMilliseconds) }
        set { lingerMilliseconds = Self.lingerMilliseconds(of: newValue) }
    }
    /// `lingerTimeout` in whole milliseconds: set from a value converted once with
    /// `lingerMilliseconds(of:)` (the `Duration` division costs about 200 instructions a time).
    public var lingerTimeoutMilliseconds: UInt32 {
        get { lingerMilliseconds }
        set { lingerMilliseconds = newValue }
    }

    /// `delay` as `lingerTimeout` stores it: whole milliseconds rounded up, at most 49 days.
    package static func lingerMilliseconds(of delay: Duration) -> UInt32 {
        let milliseconds = (delay / .milliseconds(1)).rounded(.up)
        return milliseconds <= 0 ? 0 : milliseconds >= Double(UInt32.max) ? .max : UInt32(milliseconds)
    }

    /// `delay` as `setDeadline(after:)` counts it: whole milliseconds, rounded up.
    public static func deadlineMilliseconds(of delay: Duration) -> UInt64 { delay.milliseconds }
    /// This connection's place in the loop's deadline heap (-1: none armed); kept by `ConnectionDeadlines`.
    var deadlineIndex: Int {
        get { Int(deadlineSlot) }
        set { deadlineSlot = Int32(truncatingIfNeeded: newValue) }
    }

    /// Arms the connection's one deadline: `connectionDeadlinePassed` runs after `delay`
    /// (at least 1 ms, at most about 12 days: a longer one passes then), replacing any
    /// deadline armed before. The linger after FIN uses it too.
    public func setDeadline(after delay: Duration) {
        setDeadline(afterMilliseconds: delay.milliseconds)
    }

    /// `setDeadline(after:)` with the delay in milliseconds (converted once, by
    /// `deadlineMilliseconds(of:)`, rather than per call).
    public func setDeadline(afterMilliseconds delay: UInt64) {
        guard !isClosing else { return }
        // The loop and its deadlines outlive the connection: lent, not retained (four
        // retains and releases a call, twice a ping).
        Unmanaged.passUnretained(loop)._withUnsafeGuaranteedRef { loop in
            Unmanaged.passUnretained(loop.deadlines)._withUnsafeGuaranteedRef { deadlines in
                deadlines.schedule(self, due: loop.nowMilliseconds + max(1, delay))
            }
        }
    }

    /// Disarms the deadline.
    public func clearDeadline() {
        loop.deadlines.remove(self)
    }

    /// From the loop's deadlines: the linger ends, or the delegate's timeout passed.
    func deadlinePassed() {
        guard !isClosing else { return }
        if outputState == .shutdownSent {
            close()
        } else {
            delegate?.connectionDeadlinePassed(self)
        }
    }
}
