import Glibc

/// Collects latency samples (nanoseconds) and reports percentiles.
struct LatencyRecorder {
    private var samples: [UInt64] = []
    /// More samples than this are dropped (bounded memory; far beyond a normal run).
    private let limit = 20_000_000

    init() { samples.reserveCapacity(1 << 16) }

    var count: Int { samples.count }

    mutating func record(_ nanoseconds: UInt64) {
        if samples.count < limit { samples.append(nanoseconds) }
    }

    /// The `fraction` percentile (0...1) in microseconds, nil without samples.
    mutating func percentileMicroseconds(_ fraction: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        samples.sort()
        let rank = min(samples.count - 1, max(0, Int((Double(samples.count) * fraction).rounded(.up)) - 1))
        return Double(samples[rank]) / 1000
    }

    /// Writes every sample in whole microseconds, one a line.
    func write(toFile path: String) {
        guard let file = fopen(path, "w") else { return }
        defer { fclose(file) }
        for sample in samples { fputs("\(sample / 1000)\n", file) }
    }

    /// "p50 123.4 µs, p99 456.7 µs" or "no samples".
    mutating func summary() -> String {
        guard let p50 = percentileMicroseconds(0.50), let p99 = percentileMicroseconds(0.99) else { return "no samples" }
        return "p50 \(format(p50)) us, p99 \(format(p99)) us"
    }
}

/// A number with one decimal, without Foundation.
func format(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    let tenths = (value * 10).rounded()
    let whole = Int(tenths / 10)
    let fraction = Int(abs(tenths.truncatingRemainder(dividingBy: 10)))
    return "\(whole).\(fraction)"
}
