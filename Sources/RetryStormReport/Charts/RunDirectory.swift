import RetryStormResults
import RetryStormScenario
import Foundation
import RetryStormVocabulary

/// What the charts and the report are drawn from: a study's results (``StudyResults``) with its
/// scenario, seen per variant — mean time series, quantiles, the metric table, the tuner's
/// choice. Built in memory from the results a command just computed, or from a result directory
/// read with ``ResultsCodec``: the same results give the same charts, byte for byte.
///
/// Every mean and 95% interval drawn comes from ``metrics`` (``MetricTable``, the one
/// computation behind compare.csv, sweep.csv, the terminal tables and the report), built once here.
public struct RunDirectory: Sendable {
    /// The directory, for messages and for `chart`/`report` (empty when drawn in memory).
    public let path: String
    public let scenario: LoadedScenario
    public let results: StudyResults
    /// Per point (variant or grid point) and metric: every replication's value, the mean and its
    /// 95% interval cut to the metric's range; points in study order.
    public let metrics: MetricTable
    public let timeSeries: [VariantTimeSeries]
    public let quantiles: [VariantQuantiles]
    public let tuning: TuningChoice?

    /// The view of `results`, whose scenario is `scenario`.
    public init(results: StudyResults, scenario: LoadedScenario, path: String = "") throws(ResultsError) {
        self.path = path
        self.scenario = scenario
        self.results = results
        metrics = results.metrics
        timeSeries = VariantTimeSeries.means(results.timeSeries, fallbackBucket: Double(scenario.base.bucket) / 1e9)
        quantiles = VariantQuantiles.means(results.quantiles)
        tuning = try results.tune.map { (t: TuneFile) throws(ResultsError) in
            try TuningChoice(t, file: ResultsCodec.file(path, "tune.json"))
        }
    }

    /// Whether the study swept a grid (sweep or tune): its charts are the sweep's.
    public var isSweep: Bool { results.kind == .sweep || results.kind == .tune }

    /// Reads the result directory at `path` (``ResultsCodec/decode(directory:)``) and its scenario,
    /// whose input files are the copies the directory keeps (``inputs(in:)``).
    public static func load(path: String) throws(ResultsError) -> RunDirectory {
        let results = try ResultsCodec.decode(directory: path)
        let scenarioPath = ResultsCodec.file(path, "scenario.yaml")
        let scenario: LoadedScenario
        do {
            scenario = try ScenarioLoader.parse(text: results.scenario, path: scenarioPath, inputs: try inputs(in: path))
        } catch {
            throw ResultsError(error.description)
        }
        return try RunDirectory(results: results, scenario: scenario, path: path)
    }

    /// The input files of the result directory at `path`: the copies it keeps, which its
    /// scenario.yaml names, and those inputs.json lists for the paths options gave (a sweep's
    /// grid values) — never the files the command named.
    static func inputs(in path: String) throws(ScenarioError) -> InputFiles {
        let list = ResultsCodec.file(path, InputRecord.listName)
        guard FileManager.default.fileExists(atPath: list) else { return InputFiles(copiesIn: path, records: [], listedIn: list) }
        let bytes: [UInt8]
        do { bytes = try InputFile.read(list, cap: 16 << 20) } catch {
            throw ScenarioError(SourceLocation(origin: .file(list)), error.message)
        }
        return InputFiles(copiesIn: path, records: try InputRecord.decode(bytes, file: list), listedIn: list)
    }

    static func file(_ directory: String, _ name: String) -> String { ResultsCodec.file(directory, name) }
}
