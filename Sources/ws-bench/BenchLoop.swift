import EventLoop
#if canImport(Glibc)
import Glibc
#endif

/// The client's single event loop and its timers. Everything in ws-bench runs on the thread
/// that calls `run()`.
final class BenchLoop {
    let eventLoop: EventLoop
    /// Open timers; one-shot timers leave this set when they have fired.
    private var timers: [ObjectIdentifier: TimerHandle] = [:]

    init() throws(BenchError) {
        do {
            eventLoop = try EventLoop()
        } catch {
            throw BenchError.failed("\(error)")
        }
    }

    /// Nanoseconds on a monotonic clock.
    var now: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs until `stop()` and every connection and timer is closed.
    func run() {
        eventLoop.run()
    }

    /// Ends the loop: what is still open closes, and `run()` returns once it has.
    func stop() { eventLoop.stop() }

    /// Runs `body` once after `seconds`.
    func schedule(after seconds: Double, _ body: @escaping () -> Void) {
        // uv_timer_init cannot fail on an initialized loop: there is no error to report.
        guard let timer = try? TimerHandle(loop: eventLoop) else { return }
        let key = ObjectIdentifier(timer)
        timers[key] = timer
        timer.start(after: .seconds(max(0, seconds))) { [unowned self] in
            timers[key] = nil
            timer.cancel()  // which also ends the body's hold on the timer
            body()
        }
    }

    /// Closes every timer and ends the loop (connections still open close with it).
    func closeTimers() {
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        stop()
    }
}
