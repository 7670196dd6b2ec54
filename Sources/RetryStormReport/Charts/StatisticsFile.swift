import RetryStormResults
import RetryStormScenario
/// compare.csv or sweep.csv read back: long format, one row per (variant, grid point, metric)
/// with the mean and 95% confidence interval over replications.
///
/// Columns: `variant`, then (sweep.csv only) one column per swept parameter named by its dotted
/// scenario path with values as written in a scenario (e.g. `policy.backoff.base` = `250ms`),
/// then `metric,mean,ci95_low,ci95_high,replications`.
public struct StatisticsFile: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var variant: String
        /// One value per ``StatisticsFile/parameters`` entry, as written.
        public var point: [String]
        public var metric: String
        public var mean: Double
        public var low: Double
        public var high: Double
        public var replications: Int
    }

    /// The file name, for messages.
    public let file: String
    /// Swept parameters (dotted scenario paths) in column order; empty for compare.csv.
    public let parameters: [String]
    public let rows: [Row]

    /// Variants in order of first appearance.
    public var variants: [String] { Self.unique(rows.map(\.variant)) }
    /// Metrics in order of first appearance.
    public var metrics: [String] { Self.unique(rows.map(\.metric)) }
    /// Grid points in order of first appearance.
    public var points: [[String]] { Self.unique(rows.map(\.point)) }

    /// The row for (`variant`, `point`, `metric`), if any.
    public func row(variant: String, point: [String] = [], metric: String) -> Row? {
        rows.first { $0.variant == variant && $0.point == point && $0.metric == metric }
    }

    /// The rows of compare.csv or sweep.csv, whose swept parameters are `parameters`.
    init(_ records: [StatisticRecord], parameters: [String]) {
        file = ""
        self.parameters = parameters
        rows = records.map { Row(variant: $0.variant, point: $0.parameters, metric: $0.metric, mean: $0.mean, low: $0.low,
                                 high: $0.high, replications: $0.replications) }
    }

    private static func unique<T: Equatable>(_ items: [T]) -> [T] {
        var seen: [T] = []
        for item in items where !seen.contains(item) { seen.append(item) }
        return seen
    }
}
