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

    static let trailingColumns = ["metric", "mean", "ci95_low", "ci95_high", "replications"]
    /// compare.csv's paired differences from the baseline, after `replications` (not read by the charts).
    static let differenceColumns = ["diff_mean", "diff_ci95_low", "diff_ci95_high"]

    /// - Throws: ``RunDirectoryError`` when the columns are not the documented ones, or a value is
    ///   not a number (`nan` and `inf` are numbers: an undefined or never-reached metric).
    package init(_ csv: CSVDocument) throws(RunDirectoryError) {
        file = csv.file
        let columns = csv.columns.suffix(3) == Self.differenceColumns[...] ? Array(csv.columns.dropLast(3)) : csv.columns
        guard columns.first == "variant", columns.count >= 6, Array(columns.suffix(5)) == Self.trailingColumns else {
            throw RunDirectoryError("\(csv.file):1: expected the columns variant,[swept parameters…,]\(Self.trailingColumns.joined(separator: ","))[,\(Self.differenceColumns.joined(separator: ","))]")
        }
        parameters = Array(columns[1..<(columns.count - 5)])
        let p = parameters.count
        var rows: [Row] = []
        try csv.forEachRow { (r) throws(RunDirectoryError) in
            let point = try (0..<p).map { (i: Int) throws(RunDirectoryError) in try r.text(1 + i) }
            guard let replications = Int(r.fields[p + 5]), replications >= 0 else {
                throw r.problem(p + 5, "expected a whole number (got '\(r.fields[p + 5])')")
            }
            rows.append(Row(
                variant: try r.text(0), point: point, metric: try r.text(p + 1), mean: try r.number(p + 2),
                low: try r.number(p + 3), high: try r.number(p + 4), replications: replications))
        }
        self.rows = rows
    }

    private static func unique<T: Equatable>(_ items: [T]) -> [T] {
        var seen: [T] = []
        for item in items where !seen.contains(item) { seen.append(item) }
        return seen
    }
}
