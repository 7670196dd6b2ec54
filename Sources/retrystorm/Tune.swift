import ArgumentParser
import Foundation
import RetryStormKit

struct Tune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the grid point that minimises an objective subject to constraints.",
        discussion: """
            Evaluates the grid (--grid or the scenario's `grid:`), running once the points that are
            the same configuration in effect; extends a key past the grid while the leader lies on
            its edge; lays finer grids between the leader's neighbours (--refine rounds); ranks the
            points — those meeting every constraint with confidence (each 95% interval inside its
            bound) first, then those meeting them on the mean only, each by the objective's mean,
            the rest by how far they miss — and compares the leader with the runners-up by paired
            differences. --constraint adds to the scenario's `constraints:`. The recommendation is
            confirmed on fresh replications, and --expect gates judge it there. Writes sweep.csv
            (every evaluated point), tune.csv (the ranking), tune.json and summary.csv. Exit status
            1 when no point meets the constraints even on the mean. Deterministic for a seed.

            Examples:
              retrystorm tune experiments/tune-delays.yaml
              retrystorm tune my.yaml --grid policy.backoff.base=100ms...2s:log:5 --grid policy.backoff.max=5s...120s:log:5 \\
                --objective tts_p99_s --constraint 'peak_load_ratio<=1.2' --constraint 'gave_up==0'
            """)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: ArgumentHelp("A tuned key and its candidate values (repeatable, up to three).", valueName: "path=v1,v2,… | path=LO...HI:log:N"))
    var grid: [String] = []

    @Option(help: ArgumentHelp("The metric to minimise (or max:metric to maximise); default: the scenario's `objective:`.", valueName: "metric"))
    var objective: String?

    @Option(
        name: .customLong("constraint"),
        help: ArgumentHelp(
            "A condition on a metric that the choice must meet with confidence (repeatable; adds to the scenario's `constraints:`).",
            valueName: "metric<=value"))
    var constraints: [String] = []

    @Option(help: "Rounds of finer grids around the leader.")
    var refine: Int = 1

    @OptionGroup var options: CommonOptions

    func validate() throws {
        guard (0...5).contains(refine) else { throw ValidationError("--refine must be between 0 and 5 (got \(refine))") }
        if options.shard != nil { throw ValidationError("tune cannot be sharded (each refinement depends on the last); shard a `sweep` instead") }
    }

    func run() throws {
        let context = try StudyContext(scenario: scenario, options: options)
        let loaded = context.loaded
        let tuner = try CLIErrors.scenario { () throws(ScenarioError) in
            let objectiveText: Located<String>
            if let objective {
                objectiveText = Located(objective, SourceLocation(origin: .option("--objective")))
            } else if let o = loaded.objective {
                objectiveText = o
            } else {
                throw ScenarioError(
                    SourceLocation(origin: .file(loaded.path)), field: "objective",
                    "tune needs an objective: pass --objective \(Metric.ttsP99) or add `objective:` to the scenario")
            }
            let objective = try Tuner.objective(objectiveText.value, at: objectiveText.location)
            try objective.scoped.check(populations: StudyOutput.populations(loaded), at: objectiveText.location)
            let list = try StudyOutput.constraints(loaded, constraints)
            // The recommendation is not known before the run: a constraint or gate judges it, whatever its name.
            for e in list + context.expectations where e.variant != nil {
                throw ScenarioError(e.location, "in tune a constraint or expectation judges the recommended point: drop '\(e.variant ?? ""):'")
            }
            return Tuner(
                objective: objective.metric, maximize: objective.maximize, constraints: list, refine: refine, population: objective.population)
        }
        let clock = Stopwatch()
        let specs = try CLIErrors.scenario { () throws(ScenarioError) in try Studies.grid(options: self.grid, loaded: loaded) }
        let first = try CLIErrors.scenario { () throws(ScenarioError) in
            try Studies.sweep(loaded, grid: specs, replications: options.replications, kind: .tune)
        }
        StudyOutput.reportSkipped(first)
        let out = try context.open(first, series: false)
        let jobs = options.effectiveJobs
        let maxEvents = options.maxEvents
        let outcome = try CLIErrors.scenario { () throws(ScenarioError) in
            try tuner.run(
                loaded, grid: specs, replications: options.replications, jobs: jobs,
                options: options.engine, progress: options.progress
            ) { (study: Study) throws(ScenarioError) in
                try ResourceGuard.check(study, loaded: loaded, jobs: jobs, series: false, maxEvents: maxEvents)
            }
        }
        let report = TuneReport(tuner: tuner, outcome: outcome, gates: context.expectations)
        let job = context.job(outcome.study, series: false)
        let written = job.outcome(of: outcome.results, tasks: outcome.results.count, clock: clock) { model, _ in
            model.ranking = report.records
            model.tune = report.file
            // Over time, the recommendation and its runner-up: load.svg and failures.svg.
            let top = outcome.ranking.prefix(2).map { outcome.study.points[$0.point].name }
            model.timeSeries = StudyJob.timeSeries(of: top, study: outcome.study, results: outcome.results)
            model.table = report.text(title: loaded.base.name)
        }
        try context.write(written, to: out, alsoRan: outcome.confirmation?.results ?? [])
        context.show(written)
        for w in report.edgeWarnings { Terminal.error("retrystorm: \(w)\n") }
        // A point that sets an edge's policy is that edge's recommendation; `policy export` of the
        // scenario would ask which layer's policy to write, so say how to export each one.
        if outcome.ranking.first != nil {
            for edge in Self.edges(in: outcome.study.parameterPaths) {
                Terminal.error(
                    "retrystorm: note: the recommendation sets \(edge.key)'s policy: export it with "
                        + "`retrystorm policy export \(MessageText.escaped(context.outPath)) --edge \(edge.name)`\n")
            }
        }
        if let top = outcome.ranking.first {
            StudyOutput.warnGuards(
                outcome.metrics, written.model, outcome.study, loaded, points: [outcome.study.points[top.point].name])
        }
        // Gates judge the recommendation on its fresh replications: the values that chose it are
        // the best of many noisy means, biased in its favour.
        if let top = outcome.ranking.first, let fresh = outcome.confirmation {
            try StudyOutput.judge(context.expectations, fresh.metrics, points: [outcome.study.points[top.point].name])
        }
        if outcome.best == nil {
            // A point that meets every constraint is still no choice when its objective is never
            // (or has no value): say which it is, not that constraints failed.
            let noObjective = outcome.ranking.first.map { $0.violated.isEmpty } ?? false
            throw CLIErrors.Failure(
                message: noObjective
                    ? "no evaluated point has a finite \(tuner.objectiveName) (never where too few operations succeed; see tune.csv)"
                    : "no evaluated point meets every constraint (see tune.csv; the closest is ranked first)",
                status: CLIErrors.expectationFailed)
        }
    }

    /// The call-graph edges whose keys `paths` tune (`services.CALLER.calls.CALLEE.policy.KEY` or
    /// `.timeout`), once each in the order first tuned: their key prefix and `CALLER:CALLEE`.
    static func edges(in paths: [String]) -> [(key: String, name: String)] {
        var out: [(key: String, name: String)] = []
        for path in paths {
            let parts = path.split(separator: ".", maxSplits: 4).map(String.init)
            guard parts.count == 5, parts[0] == "services", parts[2] == "calls", parts[4].hasPrefix("policy.") || parts[4] == "timeout" else {
                continue
            }
            let name = parts[1] + ":" + parts[3]
            if !out.contains(where: { $0.name == name }) { out.append((parts.prefix(4).joined(separator: "."), name)) }
        }
        return out
    }
}
