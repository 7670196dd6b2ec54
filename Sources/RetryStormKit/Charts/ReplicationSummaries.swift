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

    /// - Throws: ``RunDirectoryError`` for a missing column, no rows, or a non-numeric value.
    package init(_ csv: CSVDocument) throws(RunDirectoryError) {
        let variantColumn = try csv.column("variant")
        let replicationColumn = try csv.column("replication")
        let seedColumn = try csv.column("seed")
        for required in ["clients", "tts_p50_s", "tts_p99_s", "recovery_s"] { _ = try csv.column(required) }
        let metricColumns = csv.columns.indices.filter { ![variantColumn, replicationColumn, seedColumn].contains($0) }
        var variants = FirstAppearance<String>()
        var seeds: [String] = []
        var values: [[[Double]]] = []
        try csv.forEachRow { (row) throws(RunDirectoryError) in
            let variant = try row.text(variantColumn)
            _ = try TimeSeriesReader.replicationIndex(row, replicationColumn)
            let (v, isNew) = variants.number(variant)
            if isNew {
                seeds.append(try row.text(seedColumn))
                values.append(Array(repeating: [], count: metricColumns.count))
            }
            for (m, column) in metricColumns.enumerated() {
                values[v][m].append(try row.number(column))
            }
        }
        guard variants.count > 0 else { throw RunDirectoryError("\(csv.file): has no data rows") }
        self.variants = variants.keys
        self.seeds = seeds
        self.metrics = metricColumns.map { csv.columns[$0] }
        self.values = values
    }
}
