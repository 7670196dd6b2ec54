import GSLSupport
import RetryStormEngine
import RetryStormReport

/// `retrystorm map`: where a scenario tips into a metastable state, as P(stuck) over a grid of one
/// to three keys, with replications spent where they matter.
///
/// Every point first runs `initial` replications. Then, round by round, a point whose P(stuck) is
/// undecided — its 95% Wilson interval still holds 50%, so it may lie on either side of the
/// boundary — doubles its replications (up to `maximum`); a point whose replications agree stops.
/// Four replications that agree decide a point (0 of 4 stuck is [0, 49%]; 4 of 4 is [51%, 100%]),
/// while a point near the boundary runs on until its interval leaves 50% or it reaches `maximum`.
/// Replication r of every point draws the same random numbers whatever the rounds, so the results
/// do not depend on the order the rounds ran in, nor on `jobs`.
package struct MapStudy {
    package var loaded: LoadedScenario
    /// The sweep of the grid: its points and swept keys (its `replications` is the first round's).
    package var study: Study
    package var initial: Int
    package var maximum: Int
    package var jobs: Int
    package var options: EngineOptions
    package var progress: ProgressMode
    package var command: StudyCommand?

    package init(
        loaded: LoadedScenario, study: Study, initial: Int, maximum: Int, jobs: Int, options: EngineOptions,
        progress: ProgressMode = .none, command: StudyCommand? = nil
    ) {
        self.loaded = loaded
        self.study = study
        self.initial = initial
        self.maximum = max(initial, maximum)
        self.jobs = jobs
        self.options = options
        self.progress = progress
        self.command = command
    }

    /// The replications to add to a point that has run `count` and whose `stuck` values (1, 0, or
    /// NaN where not judged) are `values`: as many again (up to `maximum`) while its Wilson
    /// interval holds 50%, else none.
    package static func more(values: [Double], count: Int, maximum: Int) -> Int {
        let ci = Metric.stuck.interval95(values)
        guard !ci.mean.isNaN, ci.low <= 0.5, ci.high >= 0.5 else { return 0 }
        return max(0, min(count, maximum - count))
    }

    /// Runs the rounds and returns every replication's result, by point, in replication order.
    package func runRounds() -> [[ReplicationResult]] {
        var results = [[ReplicationResult]](repeating: [], count: study.points.count)
        var due = study.points.indices.map { ($0, 0..<initial) }
        var round = 1
        while !due.isEmpty {
            let tasks = due.flatMap { p, range in
                range.map { ReplicationRunner.Task(scenario: study.points[p].scenario, replication: $0) }
            }
            let shown = progress == .none ? nil : Progress(label: "map, round \(round)", mode: progress, study: Self.counting(tasks.count, study))
            shown?.start()
            var ran = ReplicationRunner.run(tasks, jobs: jobs, options: options, progress: shown)[...]
            shown?.finish()
            for (p, range) in due {
                results[p] += ran.prefix(range.count)
                ran = ran.dropFirst(range.count)
            }
            // Stop at the first broken run: the caller writes nothing then.
            if results.joined().contains(where: { $0.invariantViolation != nil || $0.eventLimitReached || $0.memoryLimitReached }) {
                break
            }
            due = results.indices.compactMap { p in
                let n = results[p].count
                let add = Self.more(values: results[p].map(\.summary.stuck), count: n, maximum: maximum)
                return add > 0 ? (p, n..<(n + add)) : nil
            }
            round += 1
        }
        return results
    }

    /// A study of `tasks` tasks of `study`'s first point: what ``Progress`` counts a round by.
    static func counting(_ tasks: Int, _ study: Study) -> Study {
        Study(kind: .sweep, points: [study.points[0]], replications: max(1, tasks))
    }

    /// Runs the map and produces its files: a sweep's (summary.csv, sweep.csv, populations.csv,
    /// services.csv, table.txt, …) over every replication that ran, and map.csv.
    package func execute() -> StudyJob.Outcome {
        let clock = Stopwatch()
        let byPoint = runRounds()
        var summaries: [SummaryRecord] = []
        var populations: [PopulationRecord] = []
        var services: [ServiceRecord] = []
        var edges: [EdgeRecord] = []
        for (p, results) in byPoint.enumerated() {
            let point = study.points[p]
            for r in results {
                summaries.append(SummaryRecord(r, variant: point.name, seed: point.scenario.seed))
                populations += PopulationRecord.records(r, variant: point.name)
                services += ServiceRecord.records(r, variant: point.name, warmup: point.scenario.warmup)
                edges += EdgeRecord.records(r, variant: point.name)
            }
        }
        var model = StudyResults(
            kind: .sweep, scenario: loaded.resultsText, parameterPaths: study.parameterPaths, summaries: summaries, command: command)
        model.populations = populations
        model.services = services
        model.edges = edges
        var table = MetricTable(study: study, summaries: summaries, populations: populations, services: services, baseline: nil)
        table.minimumDifference = command?.minimumDifference ?? .standard
        model.statistics = table.records.map(\.asWritten)
        model.table = MapTable.render(loaded: loaded, metrics: table, initial: initial, maximum: maximum)
        let all = byPoint.flatMap { $0 }
        let perf = PerfReport(
            events: all.reduce(Int64(0)) { $0 + $1.summary.events }, wallSeconds: clock.seconds, replications: all.count,
            jobs: max(1, min(jobs, all.count)))
        return StudyJob.Outcome(
            files: ResultsCodec.encode(model, jobs: jobs), model: model, metrics: table, replications: all, perf: perf)
    }
}
