import RetryStormResults
import RetryStormScenario
import Foundation

/// What the charts and the report are drawn from: a study's results (``StudyResults``) with its
/// scenario, seen per variant — mean time series, quantiles, statistics, the tuner's choice. Built
/// in memory from the results a command just computed, or from a result directory read with
/// ``ResultsCodec``: the same results give the same charts, byte for byte.
public struct RunDirectory: Sendable {
    /// The directory, for messages and for `chart`/`report` (empty when drawn in memory).
    public let path: String
    public let scenario: LoadedScenario
    public let results: StudyResults
    public let timeSeries: [VariantTimeSeries]
    public let summaries: ReplicationSummaries
    public let quantiles: [VariantQuantiles]
    public let compare: StatisticsFile?
    public let sweep: StatisticsFile?
    public let tuning: TuningChoice?

    /// The view of `results`, whose scenario is `scenario`.
    public init(results: StudyResults, scenario: LoadedScenario, path: String = "") throws(ResultsError) {
        self.path = path
        self.scenario = scenario
        self.results = results
        timeSeries = VariantTimeSeries.means(results.timeSeries, fallbackBucket: Double(scenario.base.bucket) / 1e9)
        summaries = ReplicationSummaries(results.summaries)
        quantiles = VariantQuantiles.means(results.quantiles)
        let statistics = StatisticsFile(results.statistics, parameters: results.parameterPaths)
        compare = results.kind == .compare ? statistics : nil
        sweep = results.kind == .sweep || results.kind == .tune ? statistics : nil
        tuning = try results.tune.map { (t: TuneFile) throws(ResultsError) in
            try TuningChoice(t, file: ResultsCodec.file(path, "tune.json"))
        }
    }

    /// Reads the result directory at `path` (``ResultsCodec/decode(directory:)``) and its scenario.
    public static func load(path: String) throws(ResultsError) -> RunDirectory {
        let results = try ResultsCodec.decode(directory: path)
        let scenarioPath = ResultsCodec.file(path, "scenario.yaml")
        let scenario: LoadedScenario
        do {
            scenario = try ScenarioLoader.parse(text: results.scenario, path: scenarioPath)
        } catch {
            throw ResultsError(error.description)
        }
        return try RunDirectory(results: results, scenario: scenario, path: path)
    }

    static func file(_ directory: String, _ name: String) -> String { ResultsCodec.file(directory, name) }
}
