/// Latencies in log-spaced bins of fixed size, for their quantiles: a call graph's services' and
/// edges' `latency_p50_s` and `latency_p99_s`. Recording is an index computation and an add, with
/// nothing allocated after `init`, so the graph records every request and call it ends.
///
/// The layout is HdrHistogram's (Gil Tene, "HdrHistogram: A High Dynamic Range Histogram"), with
/// ``subBuckets`` = 128 bins per power of two: a value below 256 ns has a bin of its own; a value
/// in `[2^e, 2^(e+1))`, e ≥ 8, falls in one of 128 equal bins of width `2^(e−7)` ns. So a bin's
/// width is at most 1/128 of any value in it, and the value a quantile returns (the middle of its
/// bin's whole nanoseconds) is within 1/256 (0.39%) of the true order statistic, and exact below
/// 256 ns. 10 ms, for example, is in the bin `[9,961,472, 10,027,008)` ns and reads 9,994,239.5 ns.
///
/// The bins reach ``init(maxValue:)``'s bound (the horizon: no request outlives the run), 4,562
/// of them, 36 KiB, for an hour; a value beyond it is counted in the last bin.
package struct LatencyHistogram: ~Copyable {
    /// Bins per power of two above the exact range: 2^``subBits``.
    package static let subBits = 7
    package static let subBuckets = 1 << subBits
    /// `counts[i]`: values in bin i.
    private var counts: RawBuffer<Int64>
    /// Values recorded.
    package private(set) var count: Int64 = 0

    /// An empty histogram for values from 0 to `maxValue` nanoseconds.
    package init(maxValue: Int64) {
        let bins = Self.index(Swift.max(0, maxValue)) + 1
        counts = RawBuffer(capacity: bins)
        for _ in 0..<bins { counts.append(0) }
    }

    /// Bytes its bins take.
    var allocatedBytes: Int { counts.allocatedBytes }

    /// The bin of `value` ≥ 0 nanoseconds.
    @inline(__always) package static func index(_ value: Int64) -> Int {
        if value < Int64(2 * subBuckets) { return Int(value) }
        let e = Int64.bitWidth - 1 - value.leadingZeroBitCount
        let shift = e - subBits
        return shift * subBuckets + Int(value >> shift)
    }

    /// The smallest value of bin `i` and how many whole nanoseconds it holds.
    package static func bounds(ofBin i: Int) -> (lower: Int64, width: Int64) {
        if i < 2 * subBuckets { return (Int64(i), 1) }
        let shift = i / subBuckets - 1
        return (Int64(i - shift * subBuckets) << shift, 1 << shift)
    }

    /// Counts one latency of `value` ≥ 0 nanoseconds.
    @inline(__always) package mutating func record(_ value: Int64) {
        counts[Swift.min(Self.index(value), counts.count &- 1)] &+= 1
        count &+= 1
    }

    /// The `p/per` quantile, nanoseconds (NaN when nothing was recorded): by nearest rank, the
    /// k-th smallest value with k = ⌈p·n/per⌉ (at least 1), read as the middle of its bin
    /// (`lower + (width − 1)/2`). Integer ranks, so that p99 of 100 values is the 99th exactly.
    /// - Complexity: O(bins).
    package func quantile(_ p: Int, per: Int) -> Double {
        guard count > 0 else { return .nan }
        let rank = Swift.max(1, (Int64(p) * count + Int64(per) - 1) / Int64(per))
        var seen: Int64 = 0
        for i in 0..<counts.count {
            seen &+= counts[i]
            if seen >= rank {
                let (lower, width) = Self.bounds(ofBin: i)
                return Double(lower) + Double(width - 1) / 2
            }
        }
        preconditionFailure("a histogram's bins hold fewer values than its count")
    }
}
