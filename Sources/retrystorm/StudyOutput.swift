import Foundation
import RetryStormEngine
import RetryStormKit
import RetryStormReport

/// What every simulating command does after computing: write files atomically, print, judge the
/// expectations.
enum StudyOutput {
    /// Writes `files` into `out` (staged, then moved into place), with the copies of the input
    /// files `inputs` read, the charts drawn from `charts` (the results the files hold, and their
    /// scenario; nil for a shard's partial output), and perf.json last: its peak resident set is
    /// then the whole command's, charts included.
    static func write(
        _ files: [(String, String)], to out: OutputDirectory, inputs: InputFiles, charts: (StudyResults, LoadedScenario)?,
        perf: PerfReport? = nil
    ) throws {
        try CLIErrors.output { () throws(OutputError) in
            for (name, contents) in files { try out.write(name, contents) }
            try out.writeInputs(inputs)
            if let (results, scenario) = charts { try out.writeCharts(results, scenario: scenario) }
            if let perf { try out.write("perf.json", perf.json) }
            try out.commit()
        }
    }

    /// Opens the output directory for `path`, refusing an existing one without `--force`.
    static func open(_ path: String, force: Bool) throws -> OutputDirectory {
        try CLIErrors.output { () throws(OutputError) in try OutputDirectory(path: path, force: force) }
    }

    /// Prints a line to stdout, then the perf line to stderr (stdout first, so they do not interleave).
    static func finish(stdout text: String, perf: PerfReport?) {
        Terminal.out(text)
        if let perf { Terminal.error(perf.line + "\n") }
    }

    /// Says on stderr which grid combinations were left out and why.
    static func reportSkipped(_ study: Study) {
        guard !study.skipped.isEmpty else { return }
        let list = study.skipped.prefix(5).map { "  - " + MessageText.escaped($0) }.joined(separator: "\n")
        let more = study.skipped.count > 5 ? "\n  … and \(study.skipped.count - 5) more" : ""
        Terminal.error(
            "left out \(study.skipped.count) grid point\(study.skipped.count == 1 ? "" : "s") that are not valid scenarios:\n\(list)\(more)\n")
    }

    /// The scenario's `expect:` list plus `--expect` options.
    static func expectations(_ loaded: LoadedScenario, _ options: [String]) throws -> [Expectation] {
        try CLIErrors.scenario { () throws(ScenarioError) in
            var out: [Expectation] = []
            for e in loaded.expectations { out.append(try Expectation.parse(e.value, at: e.location)) }
            for o in options { out.append(try Expectation.parse(o, at: SourceLocation(origin: .option("--expect \(o)")))) }
            for e in out {
                try e.check(populations: populations(loaded))
                try e.check(services: services(loaded))
            }
            return out
        }
    }

    /// The scenario's populations' names: what `populations.NAME.METRIC` may name.
    static func populations(_ loaded: LoadedScenario) -> [String] { loaded.base.populations.map(\.name) }

    /// The scenario's services' names, none unless it is a call graph: what `services.NAME.METRIC` may name.
    static func services(_ loaded: LoadedScenario) -> [String] {
        loaded.base.isCallGraph ? loaded.base.services.map(\.name) : []
    }

    /// Parses tune's constraints, the scenario's `constraints:` then `--constraint` options, each
    /// checked against the scenario's populations and services.
    static func constraints(_ loaded: LoadedScenario, _ options: [String]) throws(ScenarioError) -> [Expectation] {
        var list: [Expectation] = []
        for c in loaded.constraints { list.append(try Expectation.parse(c.value, at: c.location)) }
        for c in options { list.append(try Expectation.parse(c, at: SourceLocation(origin: .option("--constraint \(c)")))) }
        for e in list {
            try e.check(populations: populations(loaded))
            try e.check(services: services(loaded))
        }
        // A tune's points are a grid, not named variants: a difference from one is a release gate.
        if let e = list.first(where: { $0.reference != nil }), let r = e.reference {
            throw ScenarioError(
                e.location,
                "'\(e.text)': a paired difference (.\(r.word)(…)) is a release gate of compare (expect:, --expect), not a tuning constraint")
        }
        return list
    }

    /// Warns on stderr of every guard that refused most of the retries of a point or population
    /// of `metrics` (``GuardRefusals``), the rows of `results`, the points' scenarios those of
    /// `study`; `points`: only those, e.g. tune's recommendation.
    static func warnGuards(
        _ metrics: MetricTable, _ results: StudyResults?, _ study: Study, _ loaded: LoadedScenario, points: [String]? = nil
    ) {
        guard let results else { return }
        let scenarios = Dictionary(study.points.map { ($0.name, $0.scenario) }, uniquingKeysWith: { a, _ in a })
        let found = GuardRefusals.find(metrics, results: results, loaded: loaded, scenarios: scenarios, points: points)
        for line in GuardRefusals.lines(found) {
            Terminal.error("retrystorm: warning: \(line)\n")
        }
    }

    /// Exits with status 1 and a report when an expectation fails (after the results are written):
    /// judged at every point of the study, or at `points` only (tune: the recommendation).
    static func judge(_ expectations: [Expectation], _ metrics: MetricTable, points: [String]? = nil) throws {
        guard !expectations.isEmpty else { return }
        let failures = expectations.flatMap { $0.failures(in: metrics, points: points) }
        // A passing gate says by how much, so a pass by a hair is not read as a pass by a mile.
        let margins = expectations.compactMap { GateMargin.line($0, in: metrics, points: points) }
        if failures.isEmpty {
            Terminal.error("expectations: all \(expectations.count) met\n" + margins.map { "  - " + $0 + "\n" }.joined())
            return
        }
        if !margins.isEmpty { Terminal.error("expectations met:\n" + margins.map { "  - " + $0 + "\n" }.joined()) }
        throw CLIErrors.Failure(
            message: "\(failures.count) expectation\(failures.count == 1 ? "" : "s") failed (results were written):\n"
                + failures.map { "  - " + $0 }.joined(separator: "\n"),
            status: CLIErrors.expectationFailed)
    }

    /// Stops with status 3 when a run broke an invariant, and with status 2 when a replication
    /// reached the event limit (the estimate that let it run was wrong: nothing is written).
    static func checkOutcome(_ results: [ReplicationResult], _ out: OutputDirectory) throws {
        if let violation = results.compactMap({ $0.invariantViolation }).first {
            out.abandon()
            throw CLIErrors.internalError("invariant violated: \(violation)")
        }
        if results.contains(where: { $0.memoryLimitReached }) {
            out.abandon()
            throw CLIErrors.Failure(
                message:
                    "a replication of the call graph outgrew the memory it may use before its horizon (its services' backlogs and open calls); nothing was written (lower clients.count, bound the services' queues with server.queue.limit, or retry at fewer layers)",
                status: CLIErrors.badInput)
        }
        if results.contains(where: { $0.eventLimitReached }) {
            out.abandon()
            throw CLIErrors.Failure(
                message:
                    "a replication reached --max-events before its horizon; nothing was written (raise --max-events, or lower clients.count or policy.max_attempts)",
                status: CLIErrors.badInput)
        }
    }
}
