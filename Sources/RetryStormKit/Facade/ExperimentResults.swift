import Foundation

/// What an ``Experiment`` measured, in memory: the rows the CLI writes for the same study, their
/// statistics, and the release gates judged on them.
///
/// Metrics are ``Metric`` values (`.peakLoadRatio`, `.gaveUpFraction`: summary.csv's columns,
/// which `retrystorm metrics` and docs/outputs.md list; ``Metric/named(_:)`` finds one by its
/// column name); values are in the metric's ``Metric/unit`` (`_s`: seconds of simulated time,
/// `_fraction`: 0…1, `_per_s`: per second of simulated time, counts otherwise).
public struct ExperimentResults: Sendable {
    /// Everything the CLI writes for the same study, as typed values: ``StudyResults/summaries``
    /// (summary.csv), ``StudyResults/timeSeries`` (timeseries.csv), ``StudyResults/quantiles``
    /// (tts_quantiles.csv), ``StudyResults/statistics`` (the rows of compare.csv, which `run` does
    /// not write) and ``StudyResults/table`` (table.txt; empty for a scenario built in Swift). Its
    /// ``StudyResults/command`` is nil: no command made it.
    public let study: StudyResults
    /// Mean and 95% confidence interval (Student's t over replications) of every metric at every
    /// point, unrounded: what the gates judge, as the CLI's `--expect` does.
    public let metrics: MetricTable
    /// The scenario file, for the charts (nil for a scenario built in Swift).
    let loaded: LoadedScenario?
    /// The scenario's `expect:` gates.
    let expectations: [Located<String>]

    init(study: StudyResults, metrics: MetricTable, loaded: LoadedScenario?, expectations: [Located<String>]) {
        self.study = study
        self.metrics = metrics
        self.loaded = loaded
        self.expectations = expectations
    }

    /// The points, in order: `base` for ``Experiment/run(_:)``, the variants for
    /// ``Experiment/compare(_:baseline:)``.
    public var variants: [String] { metrics.names }

    /// The summary.csv rows of `variant`, one per replication in order, rounded as written.
    public func summaries(_ variant: String = "base") -> [SummaryRecord] {
        study.summaries.filter { $0.variant == variant }
    }

    /// The mean and 95% interval of `metric` at `variant` over the replications, rounded as
    /// compare.csv writes them (six decimals), with the paired difference from the baseline when
    /// comparing. Nil when there is no such variant or metric. With one replication the interval
    /// is the mean itself.
    public func estimate(_ metric: Metric, variant: String = "base") -> StatisticRecord? {
        study.statistics.first { $0.variant == variant && $0.metric == metric }
    }

    /// The timeseries.csv rows of `variant`, one per replication in order; each holds every
    /// column per time bucket (``TimeSeriesRecord/column(_:)``, bucket i starting at i × `bucket`).
    public func timeSeries(_ variant: String = "base") -> [TimeSeriesRecord] {
        study.timeSeries.filter { $0.variant == variant }
    }

    /// The tts_quantiles.csv rows of `variant`: per replication, the time-to-success (seconds) at
    /// each quantile level of ``QuantileRecord/levels``.
    public func quantiles(_ variant: String = "base") -> [QuantileRecord] {
        study.quantiles.filter { $0.variant == variant }
    }

    /// Judges the scenario's `expect:` gates and `gates` at every point, with the syntax and
    /// meaning of the CLI's `--expect`:
    /// `[variant:]metric[.vs(OTHER)|.minus(OTHER)][.ci95_low|.ci95_high] OP value`, OP one of
    /// `<= >= < > == !=`, a fraction also as a percentage (`gave_up_fraction<=0.1%`); without a
    /// variant a gate must hold at every point. `.vs(OTHER)` judges the paired difference from the
    /// variant OTHER relative to its mean, `.minus(OTHER)` in the metric's unit
    /// (``Expectation/Reference``).
    ///
    /// ```swift
    /// let results = try Experiment(contentsOf: url)
    ///     .adding(variant: "mine", running: MyPolicy())
    ///     .compare(ExperimentOptions(replications: 5))
    /// // Not worse than full jitter's p99 by more than 5%, with 95% confidence.
    /// let report = try results.check(["mine:tts_p99_s.vs(full-jitter).ci95_high<=5%"])
    /// for failure in report.failures { print(failure) }
    /// ```
    /// - Throws: ``ScenarioError`` for a gate that does not parse or names a variant the study
    ///   does not have (located as `expectation N`, counting the gates given from 1).
    public func check(_ gates: [String] = []) throws(ScenarioError) -> ExpectationReport {
        var parsed: [Expectation] = []
        for e in expectations { parsed.append(try Expectation.parse(e.value, at: e.location)) }
        for (i, g) in gates.enumerated() {
            parsed.append(try Expectation.parse(g, at: SourceLocation(origin: .option("expectation \(i + 1)"))))
        }
        for e in parsed { try e.check(points: variants) }
        return ExpectationReport(
            verdicts: parsed.map { e in
                ExpectationVerdict(expectation: e, outcomes: e.outcomes(in: metrics), failures: e.failures(in: metrics))
            })
    }

    /// ``check(_:)``, then stops unless every gate holds: the CLI's exit status 1 as an error.
    /// - Throws: ``ScenarioError`` for a gate that does not parse; ``ExpectationFailure``, whose
    ///   description lists each failure with its measured value and interval, when one fails.
    public func require(_ gates: [String] = []) throws {
        try check(gates).require()
    }

    /// The files the CLI writes for this study, by name, in writing order: the CSVs, table.txt and
    /// scenario.yaml (both empty for a scenario built in Swift), the same bytes, built in memory.
    /// Charts, report.html and perf.json are not among them.
    public var files: [(name: String, contents: String)] {
        ResultsCodec.encode(study).map { (name: $0.0, contents: $0.1) }
    }

    /// Writes ``files`` into the directory at `path`, with the copies of its input files, the
    /// charts and report.html when the scenario came from a file, as `--out` does: staged beside
    /// it and moved into place only when complete.
    ///
    /// ```swift
    /// try results.write(to: "build/retrystorm/metastable", force: true)  // then: retrystorm report build/retrystorm/metastable
    /// ```
    /// - Parameter force: replace an existing directory that RetryStorm wrote, as `--force`.
    /// - Throws: ``OutputError`` when `path` exists (without `force`), holds files RetryStorm did
    ///   not write, or cannot be written; nothing is left half-written.
    public func write(to path: String, force: Bool = false) throws(OutputError) {
        let out = try OutputDirectory(path: path, force: force)
        for (name, contents) in files { try out.write(name, contents) }
        if let loaded {
            try out.writeInputs(loaded.inputs)
            try out.writeCharts(study, scenario: loaded)
        }
        try out.commit()
    }
}
