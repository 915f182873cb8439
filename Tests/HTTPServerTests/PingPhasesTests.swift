@testable import HTTPServer
import XCTest

final class PingPhasesTests: XCTestCase {
    /// First pings come in the second half of the interval (give or take a slot), each on one
    /// of the loop's slot boundaries.
    func testFirstPingsFallWithinOneIntervalOnSlotBoundaries() {
        let offset: UInt64 = 37
        var phases = PingPhases(offset: offset)
        for interval: UInt64 in [1, 2, 7, 100, 1_000, 30_000, 95_001] {
            let slot = PingPhases.slot(for: interval)
            for now: UInt64 in [0, 12_345, 1 << 40] {
                for _ in 0..<500 {
                    let delay = phases.firstPingDelay(interval: interval, now: now)
                    XCTAssertGreaterThanOrEqual(delay + slot, max(1, interval - interval / 2))
                    XCTAssertGreaterThanOrEqual(delay, 1)
                    XCTAssertLessThanOrEqual(delay, interval + slot)
                    XCTAssertEqual((now + delay + offset) % slot, 0, "interval \(interval): on a boundary")
                }
            }
        }
        XCTAssertEqual(PingPhases.slot(for: 30_000), 200)
        XCTAssertEqual(PingPhases.slot(for: 100), 1, "a short interval is not gathered")
    }

    /// Connections opened one after another get first pings spread evenly over the second half
    /// of the interval: every tenth of it holds a tenth of them, so no wave of pings forms.
    func testConnectionsOpenedTogetherArePingedAcrossTheWholeInterval() {
        var phases = PingPhases(offset: 0)
        let interval: UInt64 = 30_000
        for count in [100, 1_000, 10_000] {
            var tenths = [Int](repeating: 0, count: 10)
            for _ in 0..<count {
                let delay = phases.firstPingDelay(interval: interval, now: 0)
                XCTAssertGreaterThan(delay, interval / 2 - PingPhases.longestSlot)
                tenths[max(0, min(9, (Int(delay) - 1 - Int(interval / 2)) * 10 / Int(interval / 2)))] += 1
            }
            let expected = count / 10
            for (tenth, held) in tenths.enumerated() {
                XCTAssertLessThanOrEqual(abs(held - expected), max(2, expected / 10),
                                         "\(count) connections: tenth \(tenth) holds \(held)")
            }
        }
    }

    /// First pings bunched in time (a burst's shape: here all in the first eighth of the
    /// interval, most in its first hundredth) give cadences spread over the whole interval once
    /// each connection's second ping is placed: every tenth of the interval holds a tenth of
    /// the connections' phases, and no gap from the first ping to the second exceeds the
    /// interval and a slot.
    func testSecondPingsSpreadTheCadencesOfABurstOverTheWholeInterval() {
        var phases = PingPhases(offset: 0)
        let interval: UInt64 = 30_000
        let count = 10_000
        var tenths = [Int](repeating: 0, count: 10)
        for index in 0..<count {
            let firstPing: UInt64 = index % 10 == 0 ? UInt64(index) % (interval / 8) : UInt64(index % 300)
            let pong = firstPing + 3
            let delay = phases.secondPingDelay(interval: interval, sinceFirstPing: 3, now: pong)
            let secondPing = pong + delay
            XCTAssertGreaterThan(secondPing, pong)
            XCTAssertLessThanOrEqual(secondPing - firstPing, interval + PingPhases.longestSlot)
            tenths[Int(secondPing % interval) * 10 / Int(interval)] += 1
        }
        for (tenth, held) in tenths.enumerated() {
            XCTAssertLessThanOrEqual(abs(held - count / 10), count / 100, "tenth \(tenth) holds \(held)")
        }
    }

    /// A connection pinged late in a busy loop (up to half a slot) is due again on its own
    /// boundary: its pings never drift off the interval's cadence.
    func testPingsFiredLateKeepTheirBoundaries() {
        let phases = PingPhases(offset: 11)
        let interval: UInt64 = 30_000
        let first: UInt64 = 1_000_000 + 189  // a boundary: (first + 11) % 200 == 0
        XCTAssertEqual((first + 11) % 200, 0)
        for late: UInt64 in [0, 1, 7, 99] {
            var due = first
            for _ in 0..<100 {
                let sentAt = due + late
                // What the connection computes when the pong comes 3 ms later.
                let now = sentAt + 3
                let step = interval - (now - sentAt) % interval
                let next = now + phases.onSlot(step, interval: interval, now: now)
                XCTAssertEqual(next, due + interval, "fired \(late) ms late")
                due = next
            }
        }
    }
}
