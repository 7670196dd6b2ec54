import Foundation
import RetryStormEngine

/// The `run` job: simulate a scenario's base (R replications), write the contract files, and
/// report. Shared by the CLI and the tests.
public struct RunJob {
    public var scenario: LoadedScenario
    public var replications: Int
    public var jobs: Int
    public var checkInvariants: Bool

    public init(scenario: LoadedScenario, replications: Int, jobs: Int, checkInvariants: Bool) {
        self.scenario = scenario
        self.replications = replications
        self.jobs = jobs
        self.checkInvariants = checkInvariants
    }

    /// What a run produced.
    public struct Outcome: Sendable {
        public var results: [ReplicationResult]
        public var timeseries: CSVTable
        public var summary: CSVTable
        public var ttsQuantiles: CSVTable
        public var perf: PerfReport
    }

    /// The variant name the base scenario carries in the CSVs.
    public static let baseVariant = "base"

    public func execute() -> Outcome {
        let clock = Stopwatch()
        let tasks = (0..<replications).map { ReplicationRunner.Task(scenario: scenario.base, replication: $0) }
        let results = ReplicationRunner.run(tasks, jobs: jobs, checkInvariants: checkInvariants)
        var ts = CSVTable(columns: RunOutputs.timeseriesColumns)
        var sm = CSVTable(columns: RunOutputs.summaryColumns)
        var tq = CSVTable(columns: RunOutputs.ttsQuantileColumns)
        for r in results {
            RunOutputs.appendTimeseries(r, variant: Self.baseVariant, to: &ts)
            RunOutputs.appendSummary(r, variant: Self.baseVariant, seed: scenario.base.seed, to: &sm)
            RunOutputs.appendTTSQuantiles(r, variant: Self.baseVariant, to: &tq)
        }
        let events = results.reduce(Int64(0)) { $0 + $1.summary.events }
        let perf = PerfReport(events: events, wallSeconds: clock.seconds, replications: replications, jobs: min(jobs, replications))
        return Outcome(results: results, timeseries: ts, summary: sm, ttsQuantiles: tq, perf: perf)
    }
}
