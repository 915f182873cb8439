import FoundationEssentials
import Glibc
import RxSwift

/// The virtual time of a replay, one tick a millisecond: RxTest's `TestScheduler(initialClock:
/// 0, resolution: 0.001)` in every respect a replay can see (work scheduled for now or the
/// past runs one tick later), without RxTest, which links XCTest into the server. The test
/// `rxlive replay --rxtest` writes runs on that `TestScheduler`, and sees the same times.
final class ReplayScheduler: VirtualTimeScheduler<ReplayScheduler.Milliseconds> {
    /// Ticks of one millisecond, rounded as `TestScheduler` rounds.
    struct Milliseconds: VirtualTimeConverterType {
        /// `TestScheduler`'s `resolution`, in the same arithmetic, so that times round alike.
        private let resolution = 0.001

        func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
            Date(timeIntervalSince1970: TimeInterval(virtualTime) * resolution)
        }

        func convertToVirtualTime(_ time: RxTime) -> Int {
            Int(time.timeIntervalSince1970 / resolution + 0.5)
        }

        func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
            TimeInterval(virtualTimeInterval) * resolution
        }

        func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
            Int(timeInterval / resolution + 0.5)
        }

        func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
            time + offset
        }

        func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
            lhs < rhs ? .lessThan : lhs > rhs ? .greaterThan : .equal
        }
    }

    init() {
        super.init(initialClock: 0, converter: Milliseconds())
    }

    override func adjustScheduledTime(_ time: Int) -> Int {
        time <= clock ? clock + 1 : time
    }

    /// Runs `action` at `time`.
    func scheduleAt(_ time: Int, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }
}

/// Recording times in a replay's ticks: whole milliseconds, rounded.
enum ReplayTicks {
    static func ticks(_ microseconds: UInt64) -> Int {
        Int((microseconds + 500) / 1000)
    }

    /// The tick of each recorded input, in order: its millisecond, but at least one tick after
    /// the input before it (two inputs in one millisecond stay in their order) and after 0,
    /// when the session opens.
    static func inputTicks(_ recording: RecordedSession) -> [Int] {
        var last = 0
        var result: [Int] = []
        for case .input(let time, _, _, _) in recording.events {
            last = max(ticks(time), last + 1)
            result.append(last)
        }
        return result
    }
}
