/// Timing and reporting for the benchmark.
struct Workload {
    let name: String
    let target: Double
    let rx: () -> Int
    let plain: () -> Int
}

struct Measurement {
    let workload: Workload
    let rxSeconds: Double
    let plainSeconds: Double
    var ratio: Double { rxSeconds / plainSeconds }
}

/// Runs `plain` and `rx` alternately, `runs` times each after one warm-up run of each, and
/// returns the best time of each in seconds with the checksums of their last runs. Taking
/// the best of interleaved runs keeps the load of other processes on this shared machine
/// from landing on one side only.
func measurePair(runs: Int, plain: (() -> Int)?, rx: (() -> Int)?) -> (plain: Double, rx: Double, plainChecksum: Int, rxChecksum: Int) {
    var best = (plain: Double.infinity, rx: Double.infinity)
    var checksums = (plain: plain?() ?? 0, rx: rx?() ?? 0)
    for _ in 0..<runs {
        if let plain {
            let (seconds, checksum) = time(plain)
            best.plain = min(best.plain, seconds)
            checksums.plain = checksum
        }
        if let rx {
            let (seconds, checksum) = time(rx)
            best.rx = min(best.rx, seconds)
            checksums.rx = checksum
        }
    }
    return (plain == nil ? .nan : best.plain, rx == nil ? .nan : best.rx, checksums.plain, checksums.rx)
}

private func time(_ body: () -> Int) -> (Double, Int) {
    let clock = ContinuousClock()
    let start = clock.now
    let checksum = body()
    let elapsed = clock.now - start
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, checksum)
}

func formatMilliseconds(_ seconds: Double) -> String {
    let value = seconds * 1000
    return pad(String(format: "%.2f", value), 10)
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func padRight(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
