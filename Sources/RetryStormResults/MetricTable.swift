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

    /// One cell per point and metric: point p's cell of metric m is `cells[p × columns.count + m]`.
    public let cells: [Cell]
    /// The metrics this table has cells for, in order: summary.csv's (``metrics``), and in a
    /// service's table (``services``) the columns only services.csv has after them.
    package let columns: [Metric]
    private let columnIndex: [Metric: Int]
    /// Each point's index by name (the last of a name given twice).
    let pointIndex: [String: Int]
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
    /// Each service's table, by name, from services.csv's rows, as ``populations`` from
    /// populations.csv's: what `services.NAME.METRIC` in a gate or a constraint judges. Empty
    /// unless the scenario is a call graph.
    public private(set) var services: [String: MetricTable] = [:]
    /// The services' names, in services.csv's order.
    public private(set) var serviceNames: [String] = []
    /// In a service's table (``services``), the service's name; nil elsewhere.
    public private(set) var service: String?
    /// The service a call graph's verdicts look at besides the users' outcomes (``FocusService``);
    /// nil unless the scenario is a call graph. Every table of the study (populations' and
    /// services' included) holds the same one.
    public private(set) var focus: FocusService?
    /// The focus's ``FocusService/load`` cells, by point: what the load bar compares.
    private(set) var focusLoads: [Cell]?
    /// In a service's table, the users' lost shares by point (``lostShares(_:)``): a service's
    /// rows have no operations of their own, and a variant that loses users' operations is barred
    /// on a service's columns as on the fleet's.
    private(set) var usersLost: [(values: [Double], replications: [Int])?]?
    /// The smallest difference a verdict counts (``compare(_:_:on:)``, ``BestMarks``); the
    /// populations' tables follow it.
    public var minimumDifference: MinimumDifference = .standard {
        didSet {
            for name in populationNames { populations[name]?.minimumDifference = minimumDifference }
            for name in serviceNames { services[name]?.minimumDifference = minimumDifference }
        }
    }

    /// - Parameters:
    ///   - populations: populations.csv's rows (none without populations): each population's
    ///     table (``populations``) is built from its own rows as this one is from summary.csv's.
    ///   - services: services.csv's rows (none without a call graph), each service's table likewise.
    package init(
        names: [String], parameters: [[String]], parameterPaths: [String], summaries: [SummaryRecord],
        populations: [PopulationRecord] = [], services: [ServiceRecord] = [], baseline: String? = nil
    ) {
        self.init(names, parameters, parameterPaths, summaries, columns: Self.metrics, baseline: baseline)
        (populationNames, self.populations) = Self.tables(
            populations.map { ($0.population, $0.variant, $0.replication, $0.clients, $0.value) }, names, parameters, parameterPaths,
            Self.metrics, baseline)
        (serviceNames, self.services) = Self.tables(
            services.map { ($0.service, $0.variant, $0.replication, 0, $0.value) }, names, parameters, parameterPaths, Self.serviceColumns,
            baseline)
        let lost = names.map { lostShares($0) }
        for name in serviceNames {
            self.services[name]?.service = name
            self.services[name]?.usersLost = lost
        }
        if let focus = FocusService.peakLoad(serviceNames, self.services) { setFocus(focus) }
    }

    /// Makes `focus` the focus of this table and of every population's and service's table.
    mutating func setFocus(_ focus: FocusService) {
        guard let table = services[focus.name] else { return }
        let loads = names.compactMap { table.cell($0, FocusService.load) }
        guard loads.count == names.count else { return }
        self.focus = focus
        focusLoads = loads
        for name in populationNames {
            populations[name]?.focus = focus
            populations[name]?.focusLoads = loads
        }
        for name in serviceNames {
            services[name]?.focus = focus
            services[name]?.focusLoads = loads
        }
    }

    /// summary.csv's metrics, then those only services.csv has: a service's table's ``columns``.
    static let serviceColumns = metrics + ServiceRecord.metrics.filter { !metrics.contains($0) }

    /// A table of `columns` (each summary's values in that order), with no populations or services.
    private init(
        _ names: [String], _ parameters: [[String]], _ parameterPaths: [String], _ summaries: [SummaryRecord], columns: [Metric],
        baseline: String?
    ) {
        self.columns = columns
        columnIndex = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
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
            for (m, metric) in columns.enumerated() {
                let xs = rows.map { $0.values[m] }
                let ci = metric.interval95(xs)
                cells.append(Cell(point: p, metric: metric, interval: ci, values: xs, replications: reps))
            }
        }
        self.cells = cells
        pointIndex = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// One table per owner (a population or a service) of `rows`, in the order owners first come,
    /// each built from its own rows as a study's is from summary.csv's.
    private static func tables(
        _ rows: [(owner: String, variant: String, replication: Int, clients: Int, value: (Metric) -> Double?)], _ names: [String],
        _ parameters: [[String]], _ parameterPaths: [String], _ columns: [Metric], _ baseline: String?
    ) -> ([String], [String: MetricTable]) {
        var order: [String] = []
        var byOwner: [String: [SummaryRecord]] = [:]
        for row in rows {
            if byOwner[row.owner] == nil { order.append(row.owner) }
            byOwner[row.owner, default: []].append(
                SummaryRecord(
                    variant: row.variant, replication: row.replication, seed: 0, clients: row.clients,
                    values: columns.map { row.value($0) ?? .nan }))
        }
        var tables: [String: MetricTable] = [:]
        for name in order {
            tables[name] = MetricTable(names, parameters, parameterPaths, byOwner[name] ?? [], columns: columns, baseline: baseline)
        }
        return (order, tables)
    }

    /// The table `population` names: this one for nil, the population's (nil for an unknown one).
    public func scoped(_ population: String?) -> MetricTable? {
        guard let population else { return self }
        return populations[population]
    }

    /// The table of `population` or `service` (at most one of them): this one for neither.
    package func scoped(_ population: String?, service: String?) -> MetricTable? {
        guard let service else { return scoped(population) }
        return services[service]
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
        guard let m = columnIndex[metric] else { return nil }
        return cells[p * columns.count + m]
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
