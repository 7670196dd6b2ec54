import GSLSupport

/// Per point and metric: the values of every replication, their mean and 95% confidence interval —
/// the long-format `compare.csv` and `sweep.csv`, and what verdicts are drawn from.
///
/// Computed from summary.csv's text (the values as written, six decimals), not from the
/// simulation's doubles, so that merging shards reproduces the unsharded bytes exactly.
/// Percentiles are combined across replications by averaging each replication's percentile
/// (and the interval is over those per-replication values). Intervals are cut to the range a
/// metric can take (``Metric/bounds``): a count's interval never goes below 0.
public struct MetricTable: Sendable {
    /// The summary.csv columns that are metrics (everything but identifiers), in file order.
    package static let metrics: [Metric] = SummaryRecord.metrics

    /// One point's values of one metric: each replication's, and their mean and 95% interval.
    public struct Cell: Sendable {
        /// The point's index in ``MetricTable/names``.
        public var point: Int
        /// The metric the values are of, in its unit.
        public var metric: Metric
        /// Mean and 95% interval over ``values``, cut to ``Metric/bounds``; its `count` is the replications.
        /// NaN throughout when the point has no rows.
        public var interval: ConfidenceInterval
        /// The replications' values in replication order (the pairs of a paired comparison).
        public var values: [Double]
        /// The replication index of each value.
        public var replications: [Int]
    }

    /// One cell per point and metric: point p's cell of metric m is `cells[p × metrics.count + m]`.
    public let cells: [Cell]
    /// Each point's index by name (the last of a name given twice).
    private let pointIndex: [String: Int]
    /// The points' names and swept values, in study order, and the swept parameters' paths.
    public let names: [String]
    /// Each point's swept values, parallel to ``names``, in ``parameterPaths`` order (empty in a compare).
    public let parameters: [[String]]
    /// The swept parameters' scenario key paths, in column order (empty unless a sweep or a tune).
    public let parameterPaths: [String]
    /// The point every other is compared with in `compare.csv`'s `diff_*` columns (nil: none).
    public var baseline: String?
    /// Each population's table, by name, from populations.csv's rows: the same points, and the
    /// metrics that are columns of populations.csv (any other is NaN there). What
    /// `populations.NAME.METRIC` in a gate, a constraint or an objective judges. Empty without populations.
    public private(set) var populations: [String: MetricTable] = [:]
    /// The populations' names, in populations.csv's order.
    public private(set) var populationNames: [String] = []
    /// The smallest difference a verdict counts (``compare(_:_:on:)``, ``BestMarks``); the
    /// populations' tables follow it.
    public var minimumDifference: MinimumDifference = .standard {
        didSet { for name in populationNames { populations[name]?.minimumDifference = minimumDifference } }
    }

    /// - Parameter populations: populations.csv's rows (none without populations): each
    ///   population's table (``populations``) is built from its own rows as this one is from summary.csv's.
    package init(
        names: [String], parameters: [[String]], parameterPaths: [String], summaries: [SummaryRecord],
        populations: [PopulationRecord] = [], baseline: String? = nil
    ) {
        self.names = names
        self.parameters = parameters
        self.parameterPaths = parameterPaths
        self.baseline = baseline
        var byPoint: [String: [SummaryRecord]] = [:]
        for row in summaries { byPoint[row.variant, default: []].append(row) }
        var cells: [Cell] = []
        for (p, name) in names.enumerated() {
            let rows = (byPoint[name] ?? []).sorted { $0.replication < $1.replication }
            let reps = rows.map(\.replication)
            for (m, metric) in Self.metrics.enumerated() {
                let xs = rows.map { $0.values[m] }
                let ci = Statistics.confidenceInterval95(xs).clamped(to: metric.bounds)
                cells.append(Cell(point: p, metric: metric, interval: ci, values: xs, replications: reps))
            }
        }
        self.cells = cells
        pointIndex = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
        guard !populations.isEmpty else { return }
        var rows: [String: [SummaryRecord]] = [:]
        for row in populations {
            if rows[row.population] == nil { populationNames.append(row.population) }
            rows[row.population, default: []].append(
                SummaryRecord(
                    variant: row.variant, replication: row.replication, seed: 0, clients: row.clients,
                    values: Self.metrics.map { row.value($0) ?? .nan }))
        }
        for name in populationNames {
            self.populations[name] = MetricTable(
                names: names, parameters: parameters, parameterPaths: parameterPaths, summaries: rows[name] ?? [], baseline: baseline)
        }
    }

    /// The table `population` names: this one for nil, the population's (nil for an unknown one).
    public func scoped(_ population: String?) -> MetricTable? {
        guard let population else { return self }
        return populations[population]
    }

    /// The interval of `metric` at point `name` (nil for a point or metric the table does not have).
    public func interval(_ name: String, _ metric: Metric) -> ConfidenceInterval? {
        cell(name, metric)?.interval
    }

    /// The cell of `metric` at point `name` (nil for a point or metric the table does not have).
    /// The derived ``Metric/lostFraction`` is computed from its three columns.
    public func cell(_ name: String, _ metric: Metric) -> Cell? {
        guard let p = pointIndex[name] else { return nil }
        if metric == .lostFraction, let lost = lostShares(name) {
            let ci = Statistics.confidenceInterval95(lost.values).clamped(to: metric.bounds)
            return Cell(point: p, metric: metric, interval: ci, values: lost.values, replications: lost.replications)
        }
        guard let m = SummaryRecord.metricIndex[metric] else { return nil }
        return cells[p * Self.metrics.count + m]
    }

    /// The paired difference `name − other` of `metric` over the replications both have (common
    /// random numbers: replication r of every point draws the same arrivals and service times).
    public func difference(_ name: String, minus other: String, _ metric: Metric) -> PairedDifference? {
        guard let a = cell(name, metric), let b = cell(other, metric) else { return nil }
        return PairedDifference(a.values, replications: a.replications, minus: b.values, replications: b.replications)
    }

    /// The rows of compare.csv (no parameters; with a baseline, each variant's paired difference
    /// from it) or sweep.csv (the swept parameters' values).
    public var records: [StatisticRecord] {
        cells.map { c in
            let name = names[c.point]
            var difference: (Double, Double, Double)?
            if let baseline, name != baseline, let d = self.difference(name, minus: baseline, c.metric)?.interval {
                difference = (d.mean, d.low, d.high)
            }
            return StatisticRecord(
                variant: name, parameters: parameters[c.point], metric: c.metric, mean: c.interval.mean,
                low: c.interval.low, high: c.interval.high, replications: c.interval.count, difference: difference)
        }
    }
}
