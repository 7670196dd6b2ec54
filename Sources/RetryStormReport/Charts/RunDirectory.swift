import RetryStormEngine
import RetryStormResults
import RetryStormScenario
import RetryStormVocabulary

/// What the charts and the report are drawn from: a study's results (``StudyResults``) with its
/// scenario, seen per variant — mean time series, quantiles, the metric table, the tuner's
/// choice. Built from values: the results a command just computed, or those RetryStormKit read
/// from a result directory (`RunDirectory.load(path:)`, at the edge; this module reads no file).
/// The same results give the same charts, byte for byte.
///
/// Every mean and 95% interval drawn comes from ``metrics`` (``MetricTable``, the one
/// computation behind compare.csv, sweep.csv, the terminal tables and the report), built once here.
public struct RunDirectory: Sendable {
    /// The directory the results are (or will be) in, for messages; empty when drawn in memory.
    public let path: String
    public let scenario: LoadedScenario
    public let results: StudyResults
    /// Per point (variant or grid point) and metric: every replication's value, the mean and its
    /// 95% interval cut to the metric's range; points in study order.
    public let metrics: MetricTable
    public let timeSeries: [VariantTimeSeries]
    public let quantiles: [VariantQuantiles]
    public let tuning: TuningChoice?
    /// The scenario of each sweep or tune point drawn over time (its time series), and of each
    /// compare `--vary` variant: the scenario (with the command's `--set`) and the point's values,
    /// so that a grid or `--vary` over `load.csv` or `server.capacity_csv` shades each panel's own
    /// incident. Absent for a point whose scenario does not load again (it then falls back to the
    /// base).
    public let pointScenarios: [String: Scenario]

    /// The view of `results`, whose scenario is `scenario`; `variantScenarios` are the scenarios of
    /// variants the scenario does not declare (a compare's `--vary` values), by name.
    public init(
        results: StudyResults, scenario: LoadedScenario, path: String = "", variantScenarios: [String: Scenario] = [:]
    ) throws(ResultsError) {
        self.path = path
        self.scenario = scenario
        self.results = results
        var metrics = results.metrics
        metrics.focus(on: scenario.base.focus)
        self.metrics = metrics
        timeSeries = VariantTimeSeries.means(results.timeSeries, fallbackBucket: Double(scenario.base.bucket) / 1e9)
        quantiles = VariantQuantiles.means(results.quantiles)
        tuning = try results.tune.map { (t: TuneFile) throws(ResultsError) in
            try TuningChoice(t, file: ResultsCodec.file(path, "tune.json"))
        }
        var points = variantScenarios
        if results.kind == .sweep || results.kind == .tune {
            // The grid's values applied as the sweep applied them (`scenario` has the --set already).
            let values = Dictionary(results.points.map { ($0.name, $0.parameters) }, uniquingKeysWith: { a, _ in a })
            for name in Set(timeSeries.map(\.variant)) {
                guard let parameters = values[name], parameters.count == results.parameterPaths.count else { continue }
                points[name] = try? scenario.scenario(applying: Array(zip(results.parameterPaths, parameters)), source: "--grid")
            }
        }
        pointScenarios = points
    }

    /// The scenario a variant ran: its declared variant, a sweep's or tune's point with its
    /// values (``pointScenarios``), else the base.
    func scenario(for variant: String) -> Scenario {
        scenario.variants.first { $0.name == variant }?.scenario ?? pointScenarios[variant] ?? scenario.base
    }

    /// Whether the study swept a grid (sweep or tune): its charts are the sweep's.
    public var isSweep: Bool { results.kind == .sweep || results.kind == .tune }
}
