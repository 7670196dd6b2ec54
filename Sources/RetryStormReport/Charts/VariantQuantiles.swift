import RetryStormResults

/// One variant's time-to-success distribution from tts_quantiles.csv: at each quantile level, the
/// mean over replications of that quantile (Vincent averaging), so several replications give one
/// curve with the typical shape rather than a mixture.
public struct VariantQuantiles: Sendable, Equatable {
    public var variant: String
    /// Replications that had at least one success (the others write no rows).
    public var replications: Int
    /// Quantile levels in 0…1, increasing.
    public var levels: [Double]
    /// Time to success in seconds at each level.
    public var seconds: [Double]

    public init(variant: String, replications: Int, levels: [Double], seconds: [Double]) {
        self.variant = variant
        self.replications = replications
        self.levels = levels
        self.seconds = seconds
    }

    /// The time to success at `level` (the nearest level present), NaN when there is none.
    public func seconds(at level: Double) -> Double {
        guard let i = levels.indices.min(by: { abs(levels[$0] - level) < abs(levels[$1] - level) }) else { return .nan }
        return seconds[i]
    }

    /// Reads every variant in order of first appearance.
    /// - Throws: ``ResultsError`` for a missing column, a level outside 0…1 or a negative or
    ///   non-numeric time. A file with a header and no rows is valid (nothing succeeded).
    /// Per variant: each level's time averaged over the replications that have it.
    package static func means(_ records: [QuantileRecord]) -> [VariantQuantiles] {
        var order: [String] = []
        var byVariant: [String: [QuantileRecord]] = [:]
        for r in records {
            if byVariant[r.variant] == nil { order.append(r.variant) }
            byVariant[r.variant, default: []].append(r)
        }
        return order.map { variant in
            let reps = byVariant[variant]!
            var sums: [Double: (Double, Int)] = [:]
            for r in reps {
                for (q, t) in zip(r.levels, r.seconds) { sums[q, default: (0, 0)] = (sums[q, default: (0, 0)].0 + t, sums[q, default: (0, 0)].1 + 1) }
            }
            let levels = sums.keys.sorted()
            return VariantQuantiles(
                variant: variant, replications: Set(reps.map(\.replication)).count, levels: levels,
                seconds: levels.map { sums[$0]!.0 / Double(sums[$0]!.1) })
        }
    }
}
