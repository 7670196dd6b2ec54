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
    /// - Throws: ``RunDirectoryError`` for a missing column, a level outside 0…1 or a negative or
    ///   non-numeric time. A file with a header and no rows is valid (nothing succeeded).
    package static func read(_ csv: CSVDocument) throws(RunDirectoryError) -> [VariantQuantiles] {
        let variantColumn = try csv.column("variant")
        let replicationColumn = try csv.column("replication")
        let levelColumn = try csv.column("quantile")
        let timeColumn = try csv.column("tts_s")
        var result: [VariantQuantiles] = []
        var variants = FirstAppearance<String>()
        var levels: [FirstAppearance<Double>] = []
        var counts: [[Int]] = []
        var replications: [FirstAppearance<Int>] = []
        try csv.forEachRow { (row) throws(RunDirectoryError) in
            let variant = try row.text(variantColumn)
            let replication = try TimeSeriesReader.replicationIndex(row, replicationColumn)
            let level = try row.number(levelColumn)
            let t = try row.number(timeColumn)
            guard level >= 0, level <= 1 else {
                throw row.problem(levelColumn, "expected a level between 0 and 1 (got '\(row.fields[levelColumn])')")
            }
            guard t.isFinite, t >= 0 else {
                throw row.problem(timeColumn, "expected a finite time ≥ 0 (got '\(row.fields[timeColumn])')")
            }
            let (v, newVariant) = variants.number(variant)
            if newVariant {
                result.append(VariantQuantiles(variant: variant, replications: 0, levels: [], seconds: []))
                levels.append(FirstAppearance())
                counts.append([])
                replications.append(FirstAppearance())
            }
            _ = replications[v].number(replication)
            let (i, newLevel) = levels[v].number(level)
            if newLevel {
                result[v].levels.append(level)
                result[v].seconds.append(0)
                counts[v].append(0)
            }
            result[v].seconds[i] += t
            counts[v][i] += 1
        }
        for v in result.indices {
            result[v].replications = replications[v].count
            let order = result[v].levels.indices.sorted { result[v].levels[$0] < result[v].levels[$1] }
            let seconds = order.map { result[v].seconds[$0] / Double(counts[v][$0]) }
            result[v].levels = order.map { result[v].levels[$0] }
            result[v].seconds = seconds
        }
        return result
    }
}
