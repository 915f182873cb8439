/// Durations counted in fixed logarithmic buckets: four per power of two of nanoseconds
/// (each bucket at most 19% wide), so recording is a shift, a mask and an add, and any
/// percentile is within one bucket of the truth.
struct LatencyHistogram: Sendable, Equatable {
    /// 64 powers of two, four buckets each.
    static let bucketCount = 256
    private(set) var counts = [Int](repeating: 0, count: bucketCount)
    private(set) var total = 0

    /// Counts one duration.
    mutating func record(nanoseconds: UInt64) {
        counts[Self.bucket(of: nanoseconds)] += 1
        total += 1
    }

    /// Adds another histogram's counts (the loops' histograms into one).
    mutating func add(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        total += other.total
    }

    /// The bucket of `nanoseconds`: exact below 4, then the power of two and the next two bits.
    static func bucket(of nanoseconds: UInt64) -> Int {
        guard nanoseconds >= 4 else { return Int(nanoseconds) }
        let power = 63 - nanoseconds.leadingZeroBitCount
        let fraction = Int((nanoseconds >> (power - 2)) & 3)
        return power * 4 + fraction
    }

    /// The smallest and largest durations of `bucket`.
    static func bounds(of bucket: Int) -> ClosedRange<UInt64> {
        guard bucket >= 4 else { return UInt64(bucket)...UInt64(bucket) }
        let power = bucket / 4
        let fraction = UInt64(bucket % 4)
        let step = UInt64(1) << (power - 2)
        let low = (UInt64(4) + fraction) * step
        return low...(low + (step - 1))  // the top bucket ends at UInt64.max
    }

    /// The duration below which `percentile` (0...100) of the counts fall, as the midpoint
    /// of the bucket where it lies; nil when nothing was counted.
    func percentile(_ percentile: Double) -> UInt64? {
        guard total > 0 else { return nil }
        let rank = max(1, Int((Double(total) * percentile / 100).rounded(.up)))
        var seen = 0
        for (bucket, count) in counts.enumerated() where count > 0 {
            seen += count
            if seen >= rank {
                let bounds = Self.bounds(of: bucket)
                return bounds.lowerBound + (bounds.upperBound - bounds.lowerBound) / 2
            }
        }
        return nil
    }
}
