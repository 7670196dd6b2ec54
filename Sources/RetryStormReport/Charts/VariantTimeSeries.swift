import RetryStormResults

/// One variant's time series from timeseries.csv, averaged over its replications bucket by bucket.
///
/// Invariants: `times` is strictly increasing; every column has `times.count` values.
public struct VariantTimeSeries: Sendable, Equatable {
    public var variant: String
    /// How many replications the means are over.
    public var replications: Int
    /// Bucket width in seconds, from the spacing of `t_s`.
    public var bucketSeconds: Double
    /// Bucket starts, seconds.
    public var times: [Double]
    /// `means[c]`: the mean over replications of column `TimeSeriesColumn.allCases[c]`, per bucket.
    var means: [[Double]]

    /// The mean per bucket of `column`, as written (counts per bucket, or levels).
    public func mean(_ column: TimeSeriesColumn) -> [Double] {
        means[TimeSeriesColumn.allCases.firstIndex(of: column)!]
    }

    /// The mean of `column` per second: counts divided by the bucket width; levels as they are.
    public func perSecond(_ column: TimeSeriesColumn) -> [Double] {
        let values = mean(column)
        guard column.isCount else { return values }
        return values.map { $0 / bucketSeconds }
    }

    /// The same series in at most `maxBuckets` buckets: runs of `factor` consecutive buckets are
    /// merged (counts summed, levels averaged), so a long run still draws as a readable line and
    /// a bounded SVG. A shorter last run has its counts scaled to a whole merged bucket, so its
    /// rate per second stays right. Returns the series unchanged when it is short enough.
    public func merged(maxBuckets: Int) -> (series: VariantTimeSeries, factor: Int) {
        let factor = (times.count + maxBuckets - 1) / max(1, maxBuckets)
        guard factor > 1 else { return (self, 1) }
        var result = self
        result.bucketSeconds = bucketSeconds * Double(factor)
        result.times = stride(from: 0, to: times.count, by: factor).map { times[$0] }
        result.means = zip(TimeSeriesColumn.allCases, means).map { column, values in
            Self.merged(values, factor: factor, counts: column.isCount)
        }
        return (result, factor)
    }

    /// `values` in runs of `factor` buckets: counts summed (a shorter last run scaled to a whole
    /// one), levels averaged.
    static func merged(_ values: [Double], factor: Int, counts: Bool) -> [Double] {
        stride(from: 0, to: values.count, by: factor).map { start in
            let chunk = values[start..<min(values.count, start + factor)]
            let sum = chunk.reduce(0, +)
            return counts ? sum * Double(factor) / Double(chunk.count) : sum / Double(chunk.count)
        }
    }

    /// The per-variant means over replications of `records` (rows in task order), bucket by bucket.
    package static func means(_ records: [TimeSeriesRecord], fallbackBucket: Double) -> [VariantTimeSeries] {
        var order: [String] = []
        var byVariant: [String: [TimeSeriesRecord]] = [:]
        for r in records {
            if byVariant[r.variant] == nil { order.append(r.variant) }
            byVariant[r.variant, default: []].append(r)
        }
        return order.map { variant in
            let reps = byVariant[variant]!
            let buckets = reps.map(\.buckets).max() ?? 0
            let times = (0..<buckets).map { b in reps.first { $0.buckets > b }?.column(.time)[b] ?? 0 }
            var width = Double.infinity
            for i in times.indices.dropFirst() { width = min(width, times[i] - times[i - 1]) }
            let means = TimeSeriesColumn.allCases.map { c in
                (0..<buckets).map { b -> Double in
                    let xs = reps.compactMap { r in
                        let values = r.column(c)
                        return b < values.count ? values[b] : nil
                    }
                    return xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count)
                }
            }
            return VariantTimeSeries(
                variant: variant, replications: Set(reps.map(\.replication)).count,
                bucketSeconds: width.isFinite ? width : fallbackBucket, times: times, means: means)
        }
    }
}
