import RetryStormResults
import RetryStormScenario
import GSLSupport

/// summary.csv read back: for each variant (in order of first appearance), every numeric column's
/// value per replication, and the mean with its 95% confidence interval over replications.
public struct ReplicationSummaries: Sendable {
    /// Variant names in file order.
    public let variants: [String]
    /// The numeric columns in file order (all but `variant`, `replication` and `seed`).
    public let metrics: [String]
    /// The `seed` column of each variant's first row, as written (seeds exceed a Double's precision).
    public let seeds: [String]
    /// `values[v][m]`: metric `m` of variant `v`, one value per replication in file order.
    let values: [[[Double]]]

    /// Metric `metric` of `variant` per replication; empty when either is unknown.
    public func values(variant: String, metric: String) -> [Double] {
        guard let v = variants.firstIndex(of: variant), let m = metrics.firstIndex(of: metric) else { return [] }
        return values[v][m]
    }

    /// How many replications `variant` has.
    public func replications(variant: String) -> Int {
        guard let v = variants.firstIndex(of: variant) else { return 0 }
        return values[v].first?.count ?? 0
    }

    /// The mean and two-sided 95% Student-t interval over replications (GSL). A non-finite value
    /// makes the mean non-finite (`inf` when the only such values are `inf`, as for a
    /// `recovery_s` that never came), with no interval; one replication gives no interval either
    /// (low = high = mean). NaN when the variant or metric is unknown.
    public func interval(variant: String, metric: String) -> ConfidenceInterval {
        Self.interval(values(variant: variant, metric: metric))
    }

    static func interval(_ xs: [Double]) -> ConfidenceInterval {
        if xs.contains(where: { !$0.isFinite }) || xs.isEmpty {
            let m: Double = !xs.isEmpty && xs.allSatisfy { $0.isFinite || $0 == .infinity } ? .infinity : .nan
            return ConfidenceInterval(mean: m, low: m, high: m, count: xs.count)
        }
        return Statistics.confidenceInterval95(xs)
    }

    /// - Throws: ``ResultsError`` for a missing column, no rows, or a non-numeric value.
    /// Per variant and metric, the replications' values of `records` (rows in task order).
    init(_ records: [SummaryRecord]) {
        var variants: [String] = []
        var seeds: [String] = []
        var values: [[[Double]]] = []
        var index: [String: Int] = [:]
        let metrics = ["clients"] + SummaryRecord.metricNames
        for r in records {
            let v: Int
            if let known = index[r.variant] { v = known } else {
                v = variants.count
                index[r.variant] = v
                variants.append(r.variant)
                seeds.append(String(r.seed))
                values.append(Array(repeating: [], count: metrics.count))
            }
            values[v][0].append(Double(r.clients))
            for (m, x) in r.values.enumerated() { values[v][m + 1].append(x) }
        }
        self.variants = variants
        self.seeds = seeds
        self.metrics = metrics
        self.values = values
    }
}
