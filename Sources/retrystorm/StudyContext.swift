import Foundation
import RetryStormEngine
import RetryStormKit

/// The steps every simulating command shares: load and check the scenario, check what the study
/// needs against this machine, open the output directory, run, write.
struct StudyContext {
    let loaded: LoadedScenario
    let options: CommonOptions
    let expectations: [Expectation]
    let outPath: String

    init(scenario: String, options: CommonOptions) throws {
        loaded = try CLIErrors.scenario { () throws(ScenarioError) in
            try ScenarioLoader.load(path: scenario, overrides: options.overrides, seed: options.seed, focus: options.focus)
        }
        self.options = options
        expectations = try StudyOutput.expectations(loaded, options.expectations)
        outPath = options.out ?? OutputDirectory.defaultPath(scenarioName: loaded.base.name)
    }

    /// Refuses `study` if it would not fit in memory or may run for too many events, then opens
    /// the output directory (refusing an existing one without `--force`).
    func open(_ study: Study, series: Bool) throws -> OutputDirectory {
        try check(study, series: series)
        warnHorizon([study])
        noteImports()
        return try StudyOutput.open(outPath, force: options.force)
    }

    /// Everything checked before a study runs: the expectations name its points (unless
    /// `expectations` is false: validate checks them against all its studies at once), and the
    /// resource guard for `study` with this command's jobs and event limit.
    func check(_ study: Study, series: Bool, expectations checked: Bool = true) throws {
        try CLIErrors.scenario { [loaded, options, expectations] () throws(ScenarioError) in
            let names = study.points.map(\.name)
            if checked { for e in expectations { try e.check(points: names) } }
            try ResourceGuard.check(study, loaded: loaded, jobs: options.effectiveJobs, series: series, maxEvents: options.maxEvents)
        }
    }

    /// Warns on stderr when the horizon ends before the incident and its recovery could be seen
    /// (``Scenario/horizonWarning``): once per distinct warning of the studies' points, naming the
    /// points when only some of them have it.
    func warnHorizon(_ studies: [Study]) {
        var order: [String] = []
        var points: [String: [String]] = [:]
        var seen = Set<String>()
        for point in studies.flatMap(\.points) where seen.insert(point.name).inserted {
            for w in [point.scenario.horizonWarning].compactMap({ $0 }) + point.scenario.inertKeyWarnings {
                if points[w] == nil { order.append(w) }
                points[w, default: []].append(point.name)
            }
        }
        for w in order {
            let names = points[w] ?? []
            let which = names.count == seen.count ? "" : "\(names.count == 1 ? "point" : "points") \(names.joined(separator: ", ")): "
            Terminal.error("retrystorm: warning: \(which)\(w)\n")
        }
    }

    /// Says on stderr what importing the scenario's policy files said (``InputFiles/importNotes``):
    /// every place the simulator reads a file differently from the service that ships it.
    func noteImports() {
        for n in loaded.inputs.importNotes { Terminal.error("retrystorm: note: \(MessageText.escaped(n))\n") }
    }

    /// Prints the study's table (or the shard's line) and the perf line, then judges the expectations.
    func report(_ outcome: StudyJob.Outcome, study: Study) throws {
        show(outcome, explained: study.kind == .run || study.kind == .compare ? study : nil)
        if let metrics = outcome.metrics {
            StudyOutput.warnGuards(metrics, outcome.model, study, loaded)
            try StudyOutput.judge(expectations, metrics)
        }
    }

    /// Prints the study's table (or the shard's line), `explain`'s verdict on each point of
    /// `explained` that has a trigger, then the perf line.
    func show(_ outcome: StudyJob.Outcome, explained: Study? = nil) {
        let table = outcome.files.first { $0.0 == "table.txt" }?.1
        let text =
            table.map { $0 + Self.verdicts(explained) + "results: \(MessageText.escaped(outPath))\n" }
            ?? "shard \(options.shard ?? ""): \(outcome.replications.count) tasks → \(MessageText.escaped(outPath))\n"
        StudyOutput.finish(stdout: text, perf: outcome.perf)
    }

    /// `explain`'s one-line verdict per point of `study` with a trigger, named when there is more
    /// than one point: what the laws say beside what the runs measured. Empty for none.
    static func verdicts(_ study: Study?) -> String {
        guard let study else { return "" }
        let points = study.points.filter { $0.scenario.trigger != nil }
        return points.map { p in
            let v = Explainer.explain(p.scenario).verdict
            return (study.points.count > 1 ? "\(MessageText.escaped(p.name)): " : "") + v + "\n"
        }.joined()
    }

    /// The job that runs `study` (or this command's shard of it) with this command's options, and
    /// turns results into files: every simulating command writes through it.
    func job(_ study: Study, series: Bool, progress: RetryStormKit.Progress? = nil) -> StudyJob {
        StudyJob(
            loaded: loaded, study: study, jobs: options.effectiveJobs, options: options.engine,
            shard: options.parsedShard, overrides: options.scenarioOverrides, series: series, progress: progress,
            command: options.command)
    }

    /// Runs `study` (or this command's shard of it) and writes its files: checked, then opened,
    /// run and committed.
    func execute(_ study: Study, series: Bool) throws -> StudyJob.Outcome {
        let out = try open(study, series: series)
        let job = job(study, series: series, progress: Progress(label: study.kind.rawValue, mode: options.progress, study: study))
        let outcome = try CLIErrors.output { () throws(OutputError) in try job.execute() }
        try write(outcome, to: out)
        return outcome
    }

    /// Writes `outcome`'s files, its charts and report, and perf.json into `out` and commits it;
    /// nothing when one of its replications, or of `alsoRan` (runs whose rows are not written,
    /// such as tune's confirmation), broke an invariant or reached the event limit.
    func write(_ outcome: StudyJob.Outcome, to out: OutputDirectory, alsoRan: [ReplicationResult] = []) throws {
        try StudyOutput.checkOutcome(outcome.replications + alsoRan, out)
        try StudyOutput.write(outcome.files, to: out, inputs: loaded.inputs, charts: outcome.model.map { ($0, loaded) }, perf: outcome.perf)
    }
}
