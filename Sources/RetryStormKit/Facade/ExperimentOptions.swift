import Foundation

/// How an ``Experiment`` runs: the `--replications`, `--jobs` and `--seed` of `retrystorm run`
/// and `retrystorm compare`, with the same meanings and limits.
public struct ExperimentOptions: Sendable, Hashable {
    /// Independent replications of every point, each seeded from (seed, replication index);
    /// 1…100,000. Intervals need at least 2.
    public var replications: Int
    /// Threads the replications run on, 1…1,024. Changes no number: every replication is seeded
    /// from its index alone and results are kept in task order.
    public var jobs: Int
    /// Replaces the scenario's `seed` at every point, as `--seed` does (nil: the scenario's own);
    /// at most `Int.max`, the largest seed a scenario file can hold.
    public var seed: UInt64?

    /// - Parameters:
    ///   - replications: replications per point (the CLI's default is 1).
    ///   - jobs: threads; by default one per active processor, as the CLI.
    ///   - seed: the seed for every point, or nil to keep the scenario's.
    public init(replications: Int = 1, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, seed: UInt64? = nil) {
        self.replications = replications
        self.jobs = jobs
        self.seed = seed
    }

    /// Refuses what the CLI's options refuse, naming the option.
    func check() throws(ScenarioError) {
        guard (1...100_000).contains(replications) else {
            throw ScenarioError(SourceLocation(origin: .option("replications")), "must be between 1 and 100000 (got \(replications))")
        }
        guard (1...1024).contains(jobs) else {
            throw ScenarioError(SourceLocation(origin: .option("jobs")), "must be between 1 and 1024 (got \(jobs))")
        }
        if let seed, seed > UInt64(Int.max) {
            throw ScenarioError(SourceLocation(origin: .option("seed")), field: "seed", "must be at most \(Int.max) (got \(seed))")
        }
    }
}
