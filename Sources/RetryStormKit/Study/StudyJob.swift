import Foundation
import RetryStormEngine

/// Runs a study (or one shard of it) and produces the files it writes — everything but the
/// directory handling, so the CLI and the tests share it.
public struct StudyJob {
    public var loaded: LoadedScenario
    public var study: Study
    public var jobs: Int
    /// How the engine runs (invariant checks, and the choices kept for measuring and checking it).
    public var options: EngineOptions
    public var shard: Shard?
    /// The `--set` options, recorded in shard manifests.
    public var overrides: [String]
    /// Write timeseries.csv and tts_quantiles.csv (run, compare); sweeps write summaries only.
    public var series: Bool
    public var progress: Progress?

    public init(loaded: LoadedScenario, study: Study, jobs: Int, options: EngineOptions, shard: Shard? = nil,
                overrides: [String] = [], series: Bool, progress: Progress? = nil) {
        self.loaded = loaded
        self.study = study
        self.jobs = jobs
        self.options = options
        self.shard = shard
        self.overrides = overrides
        self.series = series
        self.progress = progress
    }

    public struct Outcome: Sendable {
        /// (file name, contents) in writing order; perf.json is written last, by the caller, so
        /// that its peak resident set covers the charts too.
        public var files: [(String, String)]
        public var results: [StudyRunner.TaskResult]
        /// Mean and CI per point and metric (nil for a shard: merge computes it).
        public var metrics: MetricTable?
        public var perf: PerfReport
        public var invariantViolation: String?
    }

    /// The statistics file of a study kind (`run` has none).
    public static func statisticsFile(_ kind: Study.Kind) -> String? {
        switch kind {
        case .run: nil
        case .compare: "compare.csv"
        case .sweep, .tune: "sweep.csv"
        }
    }

    public func execute() throws(OutputError) -> Outcome {
        let clock = Stopwatch()
        let tasks = study.tasks(shard: shard)
        progress?.start()
        let results = StudyRunner.run(study, tasks: tasks, jobs: jobs, options: options, progress: progress)
        progress?.finish()
        let tables = StudyTables(study: study, results: results, jobs: jobs)
        var files: [(String, String)] = []
        if series { files.append(("timeseries.csv", tables.timeseries.contents)) }
        files.append(("summary.csv", tables.summary.contents))
        if series { files.append(("tts_quantiles.csv", tables.ttsQuantiles.contents)) }
        var metrics: MetricTable?
        if let shard {
            let manifest = ShardManifest(study: study, shard: shard, loaded: loaded, overrides: overrides, tables: files)
            files.append(("shard.json", manifest.json))
        } else {
            let table = try MetricTable(study: study, summary: try CSVFile(text: tables.summary.contents, path: "summary.csv"),
                                        baseline: study.baseline)
            if let name = Self.statisticsFile(study.kind) { files.append((name, table.csv().contents)) }
            files.append(("table.txt", StudyReport.text(kind: study.kind, loaded: loaded, metrics: table)))
            metrics = table
        }
        files.append(("scenario.yaml", loaded.text))
        let events = results.reduce(Int64(0)) { $0 + $1.result.summary.events }
        let perf = PerfReport(events: events, wallSeconds: clock.seconds, replications: tasks.count,
                              jobs: max(1, min(jobs, tasks.count)))
        return Outcome(files: files, results: results, metrics: metrics, perf: perf,
                       invariantViolation: results.compactMap { $0.result.invariantViolation }.first)
    }
}
