import GSLSupport

/// Per point and metric: the values of every replication, their mean and 95% confidence interval —
/// the long-format `compare.csv` and `sweep.csv`, and what verdicts are drawn from.
///
/// Computed from summary.csv's text (the values as written, six decimals), not from the
/// simulation's doubles, so that merging shards reproduces the unsharded bytes exactly.
/// Percentiles are combined across replications by averaging each replication's percentile
/// (and the interval is over those per-replication values). Intervals are cut to the range a
/// metric can take (``MetricInfo/range``): a count's interval never goes below 0.
public struct MetricTable: Sendable {
    /// The summary.csv columns that are metrics (everything but identifiers).
    public static let metrics: [String] = RunOutputs.summaryColumns.filter { !["variant", "replication", "seed", "clients"].contains($0) }

    public struct Cell: Sendable {
        public var point: Int
        public var metric: String
        public var interval: ConfidenceInterval
        /// The replications' values in replication order (the pairs of a paired comparison).
        public var values: [Double]
        /// The replication index of each value.
        public var replications: [Int]
    }

    public let cells: [Cell]
    private let index: [String: Int]
    /// The points' names and swept values, in study order, and the swept parameters' paths.
    public let names: [String]
    let parameters: [[String]]
    public let parameterPaths: [String]
    /// The point every other is compared with in `compare.csv`'s `diff_*` columns (nil: none).
    public var baseline: String?

    /// Reads summary rows (as written) and summarises them per point and metric.
    public init(study: Study, summary: CSVFile, baseline: String? = nil) throws(OutputError) {
        try self.init(names: study.points.map(\.name), parameters: study.points.map(\.parameters),
                      parameterPaths: study.parameterPaths, summary: summary, baseline: baseline)
    }

    public init(names: [String], parameters: [[String]], parameterPaths: [String], summary: CSVFile,
                baseline: String? = nil) throws(OutputError) {
        self.names = names
        self.parameters = parameters
        self.parameterPaths = parameterPaths
        self.baseline = baseline
        let variantColumn = try summary.column("variant")
        let replicationColumn = try summary.column("replication")
        let metricColumns = try Self.metrics.map { (m: String) throws(OutputError) -> Int in try summary.column(m) }
        var byPoint: [String: [[String]]] = [:]
        for row in summary.rows { byPoint[row[variantColumn], default: []].append(row) }
        var cells: [Cell] = []
        var index: [String: Int] = [:]
        for (p, name) in names.enumerated() {
            let rows = (byPoint[name] ?? []).sorted { (Int($0[replicationColumn]) ?? 0) < (Int($1[replicationColumn]) ?? 0) }
            let reps = rows.map { Int($0[replicationColumn]) ?? 0 }
            for (m, metric) in Self.metrics.enumerated() {
                let xs = rows.map { Double($0[metricColumns[m]]) ?? .nan }
                var ci = Statistics.confidenceInterval95(xs)
                if let range = MetricCatalog.info(metric).range { ci = ci.clamped(to: range) }
                index["\(name)\u{1F}\(metric)"] = cells.count
                cells.append(Cell(point: p, metric: metric, interval: ci, values: xs, replications: reps))
            }
        }
        self.cells = cells
        self.index = index
    }

    /// The interval of `metric` at point `name`.
    public func interval(_ name: String, _ metric: String) -> ConfidenceInterval? {
        cell(name, metric)?.interval
    }

    /// The cell of `metric` at point `name`.
    public func cell(_ name: String, _ metric: String) -> Cell? {
        index["\(name)\u{1F}\(metric)"].map { cells[$0] }
    }

    /// The paired difference `name − other` of `metric` over the replications both have (common
    /// random numbers: replication r of every point draws the same arrivals and service times).
    public func difference(_ name: String, minus other: String, _ metric: String) -> PairedDifference? {
        guard let a = cell(name, metric), let b = cell(other, metric) else { return nil }
        return PairedDifference(a.values, replications: a.replications, minus: b.values, replications: b.replications)
    }

    /// compare.csv (no parameters; with a baseline, each variant's paired difference from it) or
    /// sweep.csv (one column per swept parameter before `metric`).
    public func csv() -> CSVTable {
        let diffs = baseline != nil
        var table = CSVTable(columns: ["variant"] + parameterPaths + ["metric", "mean", "ci95_low", "ci95_high", "replications"]
                             + (diffs ? ["diff_mean", "diff_ci95_low", "diff_ci95_high"] : []))
        for c in cells {
            var row = [names[c.point]] + parameters[c.point] + [c.metric, Format.fixed(c.interval.mean, 6),
                Format.fixed(c.interval.low, 6), Format.fixed(c.interval.high, 6), String(c.interval.count)]
            if let baseline {
                if names[c.point] == baseline {
                    row += ["", "", ""]
                } else {
                    let d = difference(names[c.point], minus: baseline, c.metric)?.interval
                    row += [d.map { Format.fixed($0.mean, 6) } ?? "", d.map { Format.fixed($0.low, 6) } ?? "",
                            d.map { Format.fixed($0.high, 6) } ?? ""]
                }
            }
            table.append(row)
        }
        return table
    }
}
