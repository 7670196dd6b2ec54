import Foundation

/// Everything the charts and the report read from a run directory, parsed and checked: the CSVs
/// `run` (and later `compare` and `sweep`) write, the scenario copy, and the optional
/// compare.csv, sweep.csv and tune.json.
///
/// Loading reads every input before anything is written, so bad input leaves the directory as it
/// was.
public struct RunDirectory: Sendable {
    /// The directory as given.
    public let path: String
    /// The scenario copy (scenario.yaml), resolved without overrides.
    public let scenario: LoadedScenario
    /// Per variant, averaged over replications, in file order.
    public let timeSeries: [VariantTimeSeries]
    public let summaries: ReplicationSummaries
    /// Per variant with at least one success, in file order.
    public let quantiles: [VariantQuantiles]
    public let compare: StatisticsFile?
    public let sweep: StatisticsFile?
    public let tuning: TuningChoice?

    public init(scenario: LoadedScenario, path: String, timeSeries: [VariantTimeSeries], summaries: ReplicationSummaries,
                quantiles: [VariantQuantiles], compare: StatisticsFile?, sweep: StatisticsFile?, tuning: TuningChoice?) {
        self.path = path
        self.scenario = scenario
        self.timeSeries = timeSeries
        self.summaries = summaries
        self.quantiles = quantiles
        self.compare = compare
        self.sweep = sweep
        self.tuning = tuning
    }

    /// Reads the directory at `path`.
    /// - Throws: ``RunDirectoryError`` naming the file (and line) when the directory or a required
    ///   file (timeseries.csv, summary.csv, tts_quantiles.csv, scenario.yaml) is missing or does
    ///   not hold what RetryStorm writes.
    public static func load(path: String) throws(RunDirectoryError) -> RunDirectory {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RunDirectoryError("\(path): no such directory")
        }
        guard isDirectory.boolValue else { throw RunDirectoryError("\(path): is not a directory") }
        let scenarioPath = file(path, "scenario.yaml")
        guard let scenarioText = try read(scenarioPath) else {
            throw RunDirectoryError("\(scenarioPath): missing (every run directory has a copy of its scenario)")
        }
        let scenario: LoadedScenario
        do {
            scenario = try ScenarioLoader.parse(text: scenarioText, path: scenarioPath)
        } catch {
            throw RunDirectoryError(error.description)
        }
        let summaries = try ReplicationSummaries(try csv(path, "summary.csv", required: true)!)
        let bucket = Double(scenario.base.bucket) / 1e9
        let compare = try csv(path, "compare.csv", required: false).map { (c: CSVDocument) throws(RunDirectoryError) in try StatisticsFile(c) }
        let sweep = try csv(path, "sweep.csv", required: false).map { (c: CSVDocument) throws(RunDirectoryError) in try StatisticsFile(c) }
        // Sweeps and tunes keep summaries only (a time series per grid point would dwarf them).
        let seriesRequired = sweep == nil
        let timeSeries = try csv(path, "timeseries.csv", required: seriesRequired).map {
            (c: CSVDocument) throws(RunDirectoryError) in try TimeSeriesReader.read(c, fallbackBucket: bucket)
        } ?? []
        let quantiles = try csv(path, "tts_quantiles.csv", required: seriesRequired).map {
            (c: CSVDocument) throws(RunDirectoryError) in try VariantQuantiles.read(c)
        } ?? []
        var tuning: TuningChoice?
        let tunePath = file(path, "tune.json")
        if FileManager.default.fileExists(atPath: tunePath) {
            guard let data = FileManager.default.contents(atPath: tunePath) else {
                throw RunDirectoryError("\(tunePath): cannot be read")
            }
            tuning = try TuningChoice.parse(data, file: tunePath)
        }
        return RunDirectory(scenario: scenario, path: path, timeSeries: timeSeries, summaries: summaries,
                            quantiles: quantiles, compare: compare, sweep: sweep, tuning: tuning)
    }

    /// `directory/name`, spelled as the user gave the directory.
    static func file(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The UTF-8 text of `path`, nil when there is no such file.
    static func read(_ path: String) throws(RunDirectoryError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunDirectoryError("\(path): cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw RunDirectoryError("\(path): is not UTF-8 text") }
        return text
    }

    private static func csv(_ directory: String, _ name: String, required: Bool) throws(RunDirectoryError) -> CSVDocument? {
        let path = file(directory, name)
        guard let text = try read(path) else {
            if required { throw RunDirectoryError("\(path): missing") }
            return nil
        }
        return try CSVDocument(text: text, file: path)
    }
}
