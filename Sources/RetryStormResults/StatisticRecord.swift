/// One row of compare.csv or sweep.csv: a point's metric over its replications — mean, 95%
/// interval, and in compare.csv the paired difference from the baseline (nil for the baseline).
public struct StatisticRecord: Sendable, Equatable {
    /// The point's name (`variant`): a variant in compare.csv, a swept point in sweep.csv.
    public var variant: String
    /// The swept parameters' values (sweep.csv; empty in compare.csv).
    public var parameters: [String]
    /// The metric summarised (`metric`, by its name); the numbers below are in its unit.
    public var metric: Metric
    /// Mean over the replications (`mean`): `nan` when one is undefined, else `inf` when one is infinite.
    public var mean: Double
    /// Low end of the 95% Student-t interval (`ci95_low`), cut to ``Metric/bounds``; the mean itself when
    /// the mean is not finite or there is one replication.
    public var low: Double
    /// High end of the 95% interval (`ci95_high`), cut to ``Metric/bounds``; as ``low`` otherwise.
    public var high: Double
    /// How many replications the mean and interval are over (`replications`).
    public var replications: Int
    /// (mean, low, high) of the paired difference from the baseline; nil for the baseline or
    /// in a file without differences.
    public var difference: (mean: Double, low: Double, high: Double)?

    package init(
        variant: String, parameters: [String], metric: Metric, mean: Double, low: Double, high: Double,
        replications: Int, difference: (mean: Double, low: Double, high: Double)? = nil
    ) {
        self.variant = variant
        self.parameters = parameters
        self.metric = metric
        self.mean = mean
        self.low = low
        self.high = high
        self.replications = replications
        self.difference = difference
    }

    static let format = ValueFormat.fixed(6)

    /// The record with its numbers as they read back from the file.
    package var asWritten: StatisticRecord {
        let f = Self.format
        var r = self
        (r.mean, r.low, r.high) = (f.rounded(mean), f.rounded(low), f.rounded(high))
        r.difference = difference.map { (f.rounded($0.mean), f.rounded($0.low), f.rounded($0.high)) }
        return r
    }

    static let valueColumns = ["metric", "mean", "ci95_low", "ci95_high", "replications"]
    static let differenceColumns = ["diff_mean", "diff_ci95_low", "diff_ci95_high"]

    /// The header: `variant`, the swept parameters, the values, and the difference columns when
    /// the file has a baseline.
    package static func columns(parameters: [String], differences: Bool) -> [String] {
        ["variant"] + parameters + valueColumns + (differences ? differenceColumns : [])
    }

    package func fields(differences: Bool) -> [String] {
        var row = [variant] + parameters + [metric.name, Self.format.text(mean), Self.format.text(low), Self.format.text(high), String(replications)]
        if differences {
            row += difference.map { [Self.format.text($0.mean), Self.format.text($0.low), Self.format.text($0.high)] } ?? ["", "", ""]
        }
        return row
    }

    /// Field by field, NaN equal to NaN (an undefined value read back is the same); both have a difference
    /// or neither does.
    public static func == (a: StatisticRecord, b: StatisticRecord) -> Bool {
        a.variant == b.variant && a.parameters == b.parameters && a.metric == b.metric && a.replications == b.replications
            && sameNumbers([a.mean, a.low, a.high], [b.mean, b.low, b.high])
            && sameNumbers(a.difference.map { [$0.mean, $0.low, $0.high] } ?? [], b.difference.map { [$0.mean, $0.low, $0.high] } ?? [])
            && (a.difference == nil) == (b.difference == nil)
    }
}
