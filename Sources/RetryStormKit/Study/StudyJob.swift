import Foundation
import RetryStormEngine
import RetryStormReport

/// Runs a study (or one shard of it) and produces the files it writes — everything but the
/// directory handling, so the CLI and the tests share it.
package struct StudyJob {
    package var loaded: LoadedScenario
    package var study: Study
    package var jobs: Int
    /// How the engine runs (invariant checks, and the choices kept for measuring and checking it).
    package var options: EngineOptions
    package var shard: Shard?
    /// The `--set` options, recorded in shard manifests.
    package var overrides: [String]
    /// Write timeseries.csv and tts_quantiles.csv (run, compare); sweeps write summaries only.
    package var series: Bool
    package var progress: Progress?
    /// The command that runs the study, written as command.txt (by shards too: merge takes it).
    package var command: StudyCommand?

    package init(
        loaded: LoadedScenario, study: Study, jobs: Int, options: EngineOptions, shard: Shard? = nil,
        overrides: [String] = [], series: Bool, progress: Progress? = nil, command: StudyCommand? = nil
    ) {
        self.loaded = loaded
        self.study = study
        self.jobs = jobs
        self.options = options
        self.shard = shard
        self.overrides = overrides
        self.series = series
        self.progress = progress
        self.command = command
    }

    package struct Outcome: Sendable {
        /// (file name, contents) in writing order; perf.json is written last, by the caller, so
        /// that its peak resident set covers the charts too.
        package var files: [(String, String)]
        /// What the files hold, for the charts and the report (nil for a shard).
        package var model: StudyResults?
        /// Mean and CI per point and metric (nil for a shard: merge computes it).
        package var metrics: MetricTable?
        package var replications: [ReplicationResult]
        package var perf: PerfReport
    }

    /// The typed rows of `results` (sorted by task) of `study`, converted on `jobs` threads.
    package static func records(study: Study, results: [StudyRunner.TaskResult], series: Bool, jobs: Int)
        -> (
            summaries: [SummaryRecord], timeSeries: [TimeSeriesRecord], quantiles: [QuantileRecord],
            populations: [PopulationRecord], populationSeries: [PopulationSeriesRecord],
            services: [ServiceRecord], serviceSeries: [ServiceSeriesRecord], edges: [EdgeRecord]
        )
    {
        let rows = ParallelMap.map(results.count, threads: jobs) { i in
            let t = results[i]
            let point = study.points[study.task(t.task).point]
            return (
                SummaryRecord(t.result, variant: point.name, seed: point.scenario.seed),
                series ? TimeSeriesRecord(t.result, variant: point.name) : nil,
                series ? QuantileRecord(t.result, variant: point.name) : nil,
                PopulationRecord.records(t.result, variant: point.name),
                series ? PopulationSeriesRecord.records(t.result, variant: point.name) : [],
                ServiceRecord.records(t.result, variant: point.name, warmup: point.scenario.warmup),
                series ? ServiceSeriesRecord.records(t.result, variant: point.name) : [],
                EdgeRecord.records(t.result, variant: point.name)
            )
        }
        return (
            rows.map(\.0), rows.compactMap(\.1), rows.compactMap(\.2), rows.flatMap(\.3), rows.flatMap(\.4), rows.flatMap(\.5),
            rows.flatMap(\.6), rows.flatMap(\.7)
        )
    }

    /// timeseries.csv's rows of `points` (names of `study`'s points), in the order given and then
    /// by replication: the over-time charts of a tune's recommendation and runner-up, from the
    /// replications that ranked them.
    package static func timeSeries(of points: [String], study: Study, results: [StudyRunner.TaskResult]) -> [TimeSeriesRecord] {
        points.flatMap { name in
            results.filter { study.points[study.task($0.task).point].name == name }
                .sorted { $0.result.replication < $1.result.replication }
                .map { TimeSeriesRecord($0.result, variant: name) }
        }
    }

    /// The rows of `results` (every task of `study`, or a shard's, in task order) as the model the
    /// files are written from, without statistics: what a shard writes.
    /// - Parameter scenario: the scenario text results keep (scenario.yaml, ``LoadedScenario/resultsText``).
    package static func model(
        study: Study, results: [StudyRunner.TaskResult], scenario: String, series: Bool, jobs: Int,
        command: StudyCommand?
    ) -> StudyResults {
        let rows = records(study: study, results: results, series: series, jobs: jobs)
        var model = StudyResults(
            kind: study.kind, scenario: scenario, parameterPaths: study.parameterPaths,
            summaries: rows.summaries, timeSeries: rows.timeSeries, quantiles: rows.quantiles,
            command: command)
        model.populations = rows.populations
        model.populationSeries = rows.populationSeries
        model.services = rows.services
        model.serviceSeries = rows.serviceSeries
        model.edges = rows.edges
        return model
    }

    /// Adds compare.csv's or sweep.csv's statistics (rounded as written) to `model`, which holds
    /// every task of `study`, and returns them unrounded, for tables and expectations.
    package static func addStatistics(to model: inout StudyResults, study: Study) -> MetricTable {
        var table = MetricTable(
            study: study, summaries: model.summaries, populations: model.populations, services: model.services, baseline: study.baseline)
        table.minimumDifference = model.command?.minimumDifference ?? .standard
        model.statistics = table.records.map(\.asWritten)
        model.hasDifferences = study.baseline != nil
        return table
    }

    package func execute() throws(OutputError) -> Outcome {
        let clock = Stopwatch()
        let tasks = study.tasks(shard: shard)
        progress?.start()
        let results = StudyRunner.run(study, tasks: tasks, jobs: jobs, options: options, progress: progress)
        progress?.finish()
        return outcome(of: results, tasks: tasks.count, clock: clock)
    }

    /// The files of `results`, the study's tasks that ran (`tasks` of them, timed by `clock`):
    /// `execute()` after running, and `tune` with the tasks of all its rounds. `completing` adds
    /// what the statistics decide (tune's ranking, recommendation and table) before the files are
    /// encoded.
    package func outcome(
        of results: [StudyRunner.TaskResult], tasks: Int, clock: Stopwatch,
        completing: (inout StudyResults, MetricTable) -> Void = { _, _ in }
    ) -> Outcome {
        var model = Self.model(study: study, results: results, scenario: loaded.resultsText, series: series, jobs: jobs, command: command)
        var files: [(String, String)]
        var metrics: MetricTable?
        if let shard {
            // A sweep's shard keeps every task's time series (merge keeps its first two points');
            // nothing else a series run records is a sweep's file.
            if study.kind == .sweep {
                model.quantiles = []
                model.populationSeries = []
                model.serviceSeries = []
            }
            // A shard holds rows only: merge computes the statistics of the whole.
            files = ResultsCodec.encode(model, jobs: jobs).filter { $0.0.hasSuffix(".csv") && !$0.0.hasPrefix("compare") && !$0.0.hasPrefix("sweep") }
            let manifest = ShardManifest(study: study, shard: shard, loaded: loaded, overrides: overrides, tables: files)
            files.append(("shard.json", manifest.json))
            if let command { files.append(("command.txt", command.line + "\n")) }
            files.append(("scenario.yaml", loaded.resultsText))
        } else {
            let table = Self.addStatistics(to: &model, study: study)
            if study.kind == .sweep {
                let first = table.sweepOrder(MetricTable.sweepObjective(loaded.objective?.value)).prefix(2).map { study.points[$0].name }
                model.timeSeries = Self.timeSeries(of: first, study: study, results: results)
                model.quantiles = []
                model.populationSeries = []
                model.serviceSeries = []
            }
            model.table = StudyReport.text(kind: study.kind, loaded: loaded, metrics: table)
            completing(&model, table)
            files = ResultsCodec.encode(model, jobs: jobs)
            metrics = table
        }
        let events = results.reduce(Int64(0)) { $0 + $1.result.summary.events }
        let perf = PerfReport(
            events: events, wallSeconds: clock.seconds, replications: tasks,
            jobs: max(1, min(jobs, tasks)))
        return Outcome(files: files, model: shard == nil ? model : nil, metrics: metrics, replications: results.map(\.result), perf: perf)
    }
}
