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

/// Runs `body` `runs` times after one warm-up run; returns the median time in seconds and
/// the checksum the last run returned.
func measure(runs: Int, _ body: () -> Int) -> (seconds: Double, checksum: Int) {
    var checksum = body()
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        checksum = body()
        let elapsed = clock.now - start
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    times.sort()
    return (times[times.count / 2], checksum)
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
