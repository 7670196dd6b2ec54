/// Everything a study's result directory holds, as typed values: the one model that the CSV and
/// JSON files are written from, read back into, and that the statistics, tables, charts and the
/// report are made from. ``ResultsCodec`` turns it into files and back: `decode(encode(x)) == x`.
public struct StudyResults: Sendable, Equatable {
    /// What made it, which decides the files: run (no statistics file), compare (compare.csv),
    /// sweep (sweep.csv; the time series of its first two points only), tune (sweep.csv, tune.csv,
    /// tune.json).
    package var kind: StudyKind
    /// The scenario file's text (scenario.yaml).
    public var scenario: String
    /// The swept parameters' paths (sweep and tune), in column order.
    public var parameterPaths: [String]
    /// summary.csv, in task order (point-major, replications in order).
    public var summaries: [SummaryRecord]
    /// timeseries.csv, in task order: every point of a run or compare; a sweep's first two points by
    /// its objective, a tune's recommendation and first runner-up (docs/outputs.md).
    public var timeSeries: [TimeSeriesRecord]
    /// tts_quantiles.csv: one record per replication of each point, in task order (run and compare only;
    /// empty otherwise).
    public var quantiles: [QuantileRecord]
    /// compare.csv or sweep.csv.
    public var statistics: [StatisticRecord]
    /// Whether compare.csv carries the paired differences from a baseline.
    public var hasDifferences: Bool
    /// tune.csv and tune.json.
    package var ranking: [TuneRecord]
    package var tune: TuneFile?
    /// table.txt: what the command printed.
    public var table: String
    /// populations.csv and timeseries_populations.csv: empty unless the scenario has populations.
    public var populations: [PopulationRecord] = []
    /// timeseries_populations.csv: one record per population, replication and point with a time series;
    /// empty without populations.
    public var populationSeries: [PopulationSeriesRecord] = []
    /// services.csv: one record per service, replication and point; empty unless the scenario is a
    /// call graph (`services:`).
    public var services: [ServiceRecord] = []
    /// edges.csv: one record per edge (`calls[]` entry), replication and point; empty unless the
    /// scenario is a call graph, and in a directory written before the file existed.
    public var edges: [EdgeRecord] = []
    /// timeseries_services.csv: one record per service, replication and point with a time series
    /// (as ``populationSeries``: a run's and a compare's); empty unless the scenario is a call graph.
    public var serviceSeries: [ServiceSeriesRecord] = []
    /// command.txt: the command that made the results (nil: not recorded, as in directories
    /// written before it was, or made in memory by tests).
    package var command: StudyCommand?

    package init(
        kind: StudyKind, scenario: String, parameterPaths: [String] = [], summaries: [SummaryRecord],
        timeSeries: [TimeSeriesRecord] = [], quantiles: [QuantileRecord] = [], statistics: [StatisticRecord] = [],
        hasDifferences: Bool = false, ranking: [TuneRecord] = [], tune: TuneFile? = nil, table: String = "",
        command: StudyCommand? = nil
    ) {
        self.kind = kind
        self.scenario = scenario
        self.parameterPaths = parameterPaths
        self.summaries = summaries
        self.timeSeries = timeSeries
        self.quantiles = quantiles
        self.statistics = statistics
        self.hasDifferences = hasDifferences
        self.ranking = ranking
        self.tune = tune
        self.table = table
        self.command = command
    }

    /// The points in order of first appearance in summary.csv, with their swept values.
    public var points: [(name: String, parameters: [String])] {
        var seen = Set<String>()
        var out: [(String, [String])] = []
        var parameters: [String: [String]] = [:]
        for s in statistics where parameters[s.variant] == nil { parameters[s.variant] = s.parameters }
        for s in summaries where seen.insert(s.variant).inserted { out.append((s.variant, parameters[s.variant] ?? [])) }
        return out
    }

    /// Mean and interval of every metric per point, and the paired differences — from the
    /// summaries as written, so any reader of the files computes the same.
    public var metrics: MetricTable {
        let p = points
        var table = MetricTable(
            names: p.map(\.name), parameters: p.map(\.parameters), parameterPaths: parameterPaths,
            summaries: summaries, populations: populations, services: services, baseline: hasDifferences ? baseline : nil)
        table.minimumDifference = command?.minimumDifference ?? .standard
        return table
    }

    /// The baseline of compare.csv: the point whose difference columns are empty.
    var baseline: String? {
        statistics.first { $0.difference == nil }?.variant
    }

    /// Same kind, command and file contents: records as they compare (NaN equal to NaN), tune.json by its
    /// JSON text.
    public static func == (a: StudyResults, b: StudyResults) -> Bool {
        a.kind == b.kind && a.scenario == b.scenario && a.parameterPaths == b.parameterPaths && a.summaries == b.summaries
            && a.timeSeries == b.timeSeries && a.quantiles == b.quantiles && a.statistics == b.statistics
            && a.populations == b.populations && a.populationSeries == b.populationSeries
            && a.services == b.services && a.edges == b.edges && a.serviceSeries == b.serviceSeries
            && a.hasDifferences == b.hasDifferences && a.ranking == b.ranking && a.table == b.table && a.command == b.command
            && TuneFile.json(a.tune) == TuneFile.json(b.tune)
    }
}
