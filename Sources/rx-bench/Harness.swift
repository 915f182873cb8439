import CMallocCounter

/// Timing and reporting for the benchmark.
struct Workload {
    let name: String
    let target: Double
    /// Subscriptions (creating rows) or elements (pumping rows) one run handles: the
    /// allocation counts are printed per one of them.
    let iterations: Int
    let rx: () -> Int
    let plain: () -> Int
}

/// One side's figures: best time, and the fewest allocations of a run.
struct SideResult {
    var seconds = Double.infinity
    var allocations = UInt64.max
    var checksum = 0
}

struct Measurement {
    let workload: Workload
    let rxSeconds: Double
    let plainSeconds: Double
    var ratio: Double { rxSeconds / plainSeconds }
}

/// Runs `plain` and `rx` alternately, `runs` times each after one warm-up run of each, and
/// returns for each side the best time in seconds, the fewest allocations of a timed run and
/// the checksum of its last run. Taking the best of interleaved runs keeps the load of other
/// processes on this shared machine from landing on one side only.
func measurePair(runs: Int, plain: (() -> Int)?, rx: (() -> Int)?) -> (plain: SideResult, rx: SideResult) {
    var results = (plain: SideResult(), rx: SideResult())
    results.plain.checksum = plain?() ?? 0
    results.rx.checksum = rx?() ?? 0
    for _ in 0..<runs {
        if let plain {
            measure(plain, into: &results.plain)
        }
        if let rx {
            measure(rx, into: &results.rx)
        }
    }
    return results
}

/// Times one run of `body` and counts the allocations this thread makes during it (the
/// workloads are single-threaded; the counter reads are two thread-local loads).
private func measure(_ body: () -> Int, into result: inout SideResult) {
    let clock = ContinuousClock()
    let allocationsBefore = malloc_counter_thread_allocations()
    let start = clock.now
    let checksum = body()
    let elapsed = clock.now - start
    let allocations = malloc_counter_thread_allocations() - allocationsBefore
    result.seconds = min(result.seconds, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    result.allocations = min(result.allocations, allocations)
    result.checksum = checksum
}

/// Allocations per iteration, one decimal; "-" for a side that did not run.
func formatAllocations(_ side: SideResult, iterations: Int) -> String {
    guard side.allocations != .max else { return pad("-", 9) }
    return pad(String(format: "%.1f", Double(side.allocations) / Double(iterations)), 9)
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
