@testable import HTTPServer
import XCTest

final class PingPhasesTests: XCTestCase {
    func testFirstPingsFallWithinOneInterval() {
        var phases = PingPhases()
        for interval: UInt64 in [1, 2, 7, 100, 30_000] {
            for _ in 0..<1_000 {
                let delay = phases.firstPingDelay(interval: interval)
                XCTAssertGreaterThanOrEqual(delay, 1)
                XCTAssertLessThanOrEqual(delay, interval)
            }
        }
    }

    /// Connections opened one after another get first pings spread evenly over the interval:
    /// every tenth of it holds a tenth of them, so no wave of pings forms.
    func testConnectionsOpenedTogetherArePingedAcrossTheWholeInterval() {
        var phases = PingPhases()
        let interval: UInt64 = 30_000
        for count in [10, 100, 10_000] {
            var tenths = [Int](repeating: 0, count: 10)
            for _ in 0..<count {
                let delay = phases.firstPingDelay(interval: interval)
                tenths[Int((delay - 1) * 10 / interval)] += 1
            }
            let expected = count / 10
            for (tenth, held) in tenths.enumerated() {
                XCTAssertLessThanOrEqual(abs(held - expected), max(1, expected / 20),
                                         "\(count) connections: tenth \(tenth) holds \(held)")
            }
        }
    }
}
