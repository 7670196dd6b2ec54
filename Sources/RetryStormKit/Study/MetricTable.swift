import GSLSupport

/// Per point and metric: the mean and 95% Student-t confidence interval over replications — the
/// long-format `compare.csv` and `sweep.csv`.
///
/// Computed from summary.csv's text (the values as written, six decimals), not from the
/// simulation's doubles, so that merging shards reproduces the unsharded bytes exactly.
/// Percentiles are combined across replications by averaging each replication's percentile
/// (and the interval is over those per-replication values).
public struct MetricTable: Sendable {
    /// The summary.csv columns that are metrics (everything but identifiers).
    public static let metrics: [String] = RunOutputs.summaryColumns.filter { !["variant", "replication", "seed", "clients"].contains($0) }

    public struct Cell: Sendable {
        public var point: Int
        public var metric: String
        public var interval: ConfidenceInterval
    }

    public let cells: [Cell]
    private let index: [String: Int]
    /// The points' names and swept values, in study order, and the swept parameters' paths.
    public let names: [String]
    let parameters: [[String]]
    public let parameterPaths: [String]

    /// Reads summary rows (as written) and summarises them per point and metric.
    public init(study: Study, summary: CSVFile) throws(OutputError) {
        try self.init(names: study.points.map(\.name), parameters: study.points.map(\.parameters),
                      parameterPaths: study.parameterPaths, summary: summary)
    }

    public init(names: [String], parameters: [[String]], parameterPaths: [String], summary: CSVFile) throws(OutputError) {
        self.names = names
        self.parameters = parameters
        self.parameterPaths = parameterPaths
        let variantColumn = try summary.column("variant")
        let metricColumns = try Self.metrics.map { (m: String) throws(OutputError) -> Int in try summary.column(m) }
        var byPoint: [String: [[String]]] = [:]
        for row in summary.rows { byPoint[row[variantColumn], default: []].append(row) }
        var cells: [Cell] = []
        var index: [String: Int] = [:]
        for (p, name) in names.enumerated() {
            let rows = byPoint[name] ?? []
            for (m, metric) in Self.metrics.enumerated() {
                let xs = rows.map { Double($0[metricColumns[m]]) ?? .nan }
                index["\(name)\u{1F}\(metric)"] = cells.count
                cells.append(Cell(point: p, metric: metric, interval: Statistics.confidenceInterval95(xs)))
            }
        }
        self.cells = cells
        self.index = index
    }

    /// The interval of `metric` at point `name`.
    public func interval(_ name: String, _ metric: String) -> ConfidenceInterval? {
        index["\(name)\u{1F}\(metric)"].map { cells[$0].interval }
    }

    /// compare.csv (no parameters) or sweep.csv (one column per swept parameter before `metric`).
    public func csv() -> CSVTable {
        var table = CSVTable(columns: ["variant"] + parameterPaths + ["metric", "mean", "ci95_low", "ci95_high", "replications"])
        for c in cells {
            table.append([names[c.point]] + parameters[c.point] + [c.metric, Format.fixed(c.interval.mean, 6),
                Format.fixed(c.interval.low, 6), Format.fixed(c.interval.high, 6), String(c.interval.count)])
        }
        return table
    }
}
