import Foundation
import RetryPolicy
import RetryStormEngine
import RetryStormReport

/// A scenario to simulate from Swift code: `retrystorm run` and `retrystorm compare` as calls that
/// return typed results in memory.
///
/// ```swift
/// let experiment = try Experiment(contentsOf: URL(fileURLWithPath: "experiments/metastable.yaml"))
/// let results = try experiment.compare(ExperimentOptions(replications: 5))
/// try results.require(["backoff-jitter:peak_load_ratio.ci95_high<=2"])
/// ```
///
/// The numbers are the CLI's: the study is built by ``Studies``, run by ``StudyRunner`` and turned
/// into rows and statistics by ``StudyJob``, the code behind the commands, so
/// `compare(ExperimentOptions(replications: 10))` holds the rows of the summary.csv and compare.csv
/// that `retrystorm compare FILE --replications 10` writes. Nothing is written to disk unless
/// ``ExperimentResults/write(to:force:)`` is called.
public struct Experiment: Sendable {
    /// Where the scenario came from: a scenario file's text, or values built in Swift.
    enum Source: Sendable {
        /// The loaded file, and the `--set`-style overrides it was loaded with (to load it again
        /// with another seed).
        case file(LoadedScenario, overrides: [String])
        case swift(base: Scenario, variants: [(name: String, scenario: Scenario)])
    }

    var source: Source
    /// The caller's retry code that every client of every scenario runs (nil: each scenario's own
    /// `policy`); set by ``running(_:)``.
    var customPolicy: CustomPolicy?
    /// Variants the caller added in Swift, after the scenario's own (see ``adding(variant:running:)``).
    var customVariants: [CustomVariant] = []

    /// Resolves scenario YAML `yaml` as the CLI resolves a file.
    /// - Parameters:
    ///   - path: the name errors give the text (`path:line:column`) and the default scenario name
    ///     (its file name without extension); files the scenario names (`load.csv`, …) are read
    ///     relative to it.
    ///   - overrides: `dotted.path=value` strings, applied in order after the file and after
    ///     each variant's keys, as `--set`.
    /// - Throws: ``ScenarioError`` naming the line and field of the first problem, exactly as
    ///   `retrystorm validate` reports it.
    ///
    /// ```swift
    /// let experiment = try Experiment(yaml: """
    ///     horizon: 120s
    ///     clients: { count: 2000, rate: 0.05/s }
    ///     server: { capacity: 400/s, outage: { at: 10s, duration: 20s, fraction: 0.1 } }
    ///     policy: { preset: grpc }
    ///     """, path: "outage.yaml", overrides: ["policy.max_attempts=4"])
    /// ```
    public init(yaml: String, path: String = "scenario.yaml", overrides: [String] = []) throws(ScenarioError) {
        source = .file(try ScenarioLoader.parse(text: yaml, path: path, overrides: overrides), overrides: overrides)
    }

    /// Reads and resolves the scenario file at `url` (a file URL), with `--set`-style `overrides`.
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "experiments/metastable.yaml")
    /// let experiment = try Experiment(contentsOf: url, overrides: ["clients.count=2000"])
    /// ```
    /// - Throws: ``ScenarioError`` when the file cannot be read or is not a valid scenario.
    public init(contentsOf url: URL, overrides: [String] = []) throws(ScenarioError) {
        guard url.isFileURL else {
            throw ScenarioError(SourceLocation(origin: .file(url.absoluteString)), "is not a file URL: give the URL of a local YAML file")
        }
        source = .file(try ScenarioLoader.load(path: url.path, overrides: overrides), overrides: overrides)
    }

    /// A scenario built in Swift, with named `variants` for ``compare(_:baseline:)``.
    ///
    /// Such a scenario has no file: its results carry no scenario text, no `expect:` gates and no
    /// table.txt; and, with no file lines to name, it is not checked against this machine's
    /// memory before it runs, as a file's study is.
    /// - Throws: ``ScenarioError`` for a variant name that is empty, repeated, or has characters
    ///   that a CSV field or a shell would need quoted (letters, digits and `- _ . + = : @ % /` only).
    ///
    /// ```swift
    /// let base = try Experiment(contentsOf: url).base
    /// var capped = base
    /// capped.policy.maxAttempts = 2
    /// let results = try Experiment(scenario: base, variants: [("as-is", base), ("two-attempts", capped)])
    ///     .compare(ExperimentOptions(replications: 5))
    /// ```
    public init(scenario: Scenario, variants: [(name: String, scenario: Scenario)] = []) throws(ScenarioError) {
        for (i, v) in variants.enumerated() {
            try Self.checkVariantName(v.name, at: SourceLocation(origin: .option("variants[\(i)]")), taken: variants[..<i].map(\.name))
        }
        source = .swift(base: scenario, variants: variants)
    }

    /// Refuses a variant name a CSV field or a shell would need quoted, or one already `taken`.
    static func checkVariantName(_ name: String, at here: SourceLocation, taken: [String]) throws(ScenarioError) {
        guard VariantName.isValid(name) else {
            throw ScenarioError(
                here, field: "name",
                VariantName.formulaProblem(name) ?? "'\(name)' is not a variant name: use letters, digits and \(VariantName.punctuation)")
        }
        guard !taken.contains(name) else {
            throw ScenarioError(here, field: "name", "'\(name)' names two variants")
        }
    }

    /// The scenario file as loaded (nil for a scenario built in Swift).
    public var loaded: LoadedScenario? {
        if case .file(let loaded, _) = source { return loaded }
        return nil
    }

    /// The base scenario: what ``run(_:)`` simulates.
    public var base: Scenario {
        switch source {
        case .file(let loaded, _): loaded.base
        case .swift(let base, _): base
        }
    }

    /// The declared variants, in order: what ``compare(_:baseline:)`` simulates.
    public var variants: [(name: String, scenario: Scenario)] {
        switch source {
        case .file(let loaded, _): loaded.variants
        case .swift(_, let variants): variants
        }
    }

    /// The scenario's own release gates (its `expect:` list), judged by
    /// ``ExperimentResults/check(_:)`` together with the ones it is given, as the CLI judges them
    /// with `--expect`.
    public var expectations: [Located<String>] { loaded?.expectations ?? [] }

    /// Simulates the base scenario, as `retrystorm run` (the variants are not run): one point,
    /// named `base`.
    ///
    /// ```swift
    /// let results = try experiment.run(ExperimentOptions(replications: 3, seed: 7))
    /// let p99 = results.estimate(.ttsP99)  // mean and 95% interval over the 3 replications, seconds
    /// ```
    /// - Throws: ``ScenarioError`` for options out of range, or a study too big for this machine
    ///   (the same check, and message, as the CLI's).
    public func run(_ options: ExperimentOptions = ExperimentOptions()) throws(ScenarioError) -> ExperimentResults {
        let experiment = try seeded(options)
        let study = Study(
            kind: .run, points: [.init(name: "base", scenario: experiment.running(experiment.base))],
            replications: options.replications)
        return try experiment.execute(study, options)
    }

    /// Simulates every variant, as `retrystorm compare`: replication r of every variant sees the
    /// same random streams, and every variant is compared with `baseline` (paired differences).
    ///
    /// ```swift
    /// let results = try experiment.compare(ExperimentOptions(replications: 5), baseline: "full-jitter")
    /// let d = results.estimate(.gaveUpFraction, variant: "no-backoff")?.difference  // minus full-jitter's, paired
    /// ```
    /// - Parameter baseline: the variant the others are compared with (nil: the first).
    /// - Throws: ``ScenarioError`` when the scenario has no variants, `baseline` is not one of
    ///   them, a variant conflicts with an override, or the study is too big for this machine.
    public func compare(_ options: ExperimentOptions = ExperimentOptions(), baseline: String? = nil) throws(ScenarioError) -> ExperimentResults {
        let experiment = try seeded(options)
        var points: [Study.Point]
        switch experiment.source {
        case .file(let loaded, _) where loaded.variants.isEmpty && !customVariants.isEmpty:
            // The scenario's own policy, so that the added ones have it to be compared with.
            points = [.init(name: "base", scenario: loaded.base)]
        case .swift(let base, let variants) where variants.isEmpty && !customVariants.isEmpty:
            points = [.init(name: "base", scenario: base)]
        case .file(let loaded, _):
            points = try Studies.compare(loaded, vary: [], replications: options.replications).points
        case .swift(_, let variants):
            points = variants.map { .init(name: $0.name, scenario: $0.scenario) }
        }
        points =
            points.map { .init(name: $0.name, scenario: experiment.running($0.scenario)) }
            + experiment.customVariants.map { .init(name: $0.name, scenario: $0.scenario(experiment.base)) }
        guard let first = points.first else {
            throw ScenarioError(
                SourceLocation(origin: .option("variants")), field: "variants",
                "nothing to compare: give the scenario variants, or add some with adding(variant:running:)")
        }
        let names = points.map(\.name)
        if let baseline, !names.contains(baseline) {
            let hint = Suggest.nearest(baseline, in: names).map { " Did you mean '\($0)'?" } ?? ""
            throw ScenarioError(
                SourceLocation(origin: .option("baseline")),
                "'\(baseline)' is not a variant of this comparison (\(names.joined(separator: ", "))).\(hint)")
        }
        var study = Study(kind: .compare, points: points, replications: options.replications)
        study.baseline = baseline ?? first.name
        return try experiment.execute(study, options)
    }

    /// This experiment with `options`' seed, after checking `options`: a file loaded again with
    /// the seed as `--seed` loads it (after every other key, at every point), so that every number
    /// and the table's title are the CLI's; a scenario built in Swift with its `seed` replaced.
    func seeded(_ options: ExperimentOptions) throws(ScenarioError) -> Experiment {
        try options.check()
        guard let seed = options.seed else { return self }
        var seeded = self
        switch source {
        case .file(let loaded, let overrides):
            let again = try ScenarioLoader.parse(text: loaded.text, path: loaded.path, overrides: overrides, seed: seed, inputs: loaded.inputs)
            seeded.source = .file(again, overrides: overrides)
        case .swift(var base, let variants):
            base.seed = seed
            seeded.source = .swift(
                base: base,
                variants: variants.map { v in
                    var scenario = v.scenario
                    scenario.seed = seed
                    return (v.name, scenario)
                })
        }
        return seeded
    }

    /// Runs every task of `study` and summarises it as the CLI does, without writing anything.
    func execute(_ study: Study, _ options: ExperimentOptions) throws(ScenarioError) -> ExperimentResults {
        let engine = EngineOptions(maxEvents: ResourceGuard.defaultMaxEvents, graphMemory: ResourceGuard.graphMemory(jobs: options.jobs))
        try Self.checkCustomPolicies(study)
        if let loaded {
            try ResourceGuard.check(study, loaded: loaded, jobs: options.jobs, series: true, maxEvents: engine.maxEvents)
        }
        let tasks = StudyRunner.run(study, tasks: study.tasks(shard: nil), jobs: options.jobs, options: engine)
        if tasks.contains(where: { $0.result.memoryLimitReached }) {
            throw ScenarioError(
                SourceLocation(origin: .option("clients.count")), field: "clients.count",
                "a replication of the call graph outgrew the memory it may use before its horizon: lower clients.count, bound the services' queues with server.queue.limit, or retry at fewer layers"
            )
        }
        if tasks.contains(where: { $0.result.eventLimitReached }) {
            throw ScenarioError(
                SourceLocation(origin: .option("clients.count")), field: "clients.count",
                "a replication reached \(Format.grouped(engine.maxEvents)) events before its horizon: lower clients.count or policy.max_attempts")
        }
        var model = StudyJob.model(
            study: study, results: tasks, scenario: loaded?.resultsText ?? "", series: true,
            jobs: options.jobs, command: nil)
        let metrics = StudyJob.addStatistics(to: &model, study: study)
        if let loaded { model.table = StudyReport.text(kind: study.kind, loaded: loaded, metrics: metrics) }
        return ExperimentResults(study: model, metrics: metrics, loaded: loaded, expectations: expectations)
    }
}
