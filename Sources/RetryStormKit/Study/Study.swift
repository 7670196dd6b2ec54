import RetryStormEngine
import RetryStormScenario

/// A set of simulations: named points (the base, the variants of `compare`, the grid points of
/// `sweep`/`tune`), each run for `replications` replications.
///
/// Work is cut into tasks, point-major: task `p · R + r` is replication `r` of point `p`. Results
/// and output rows are always in task order, so the bytes do not depend on `--jobs`, and a shard
/// (every task `t` with `t mod n = i`) can be merged back into exactly the unsharded output.
package struct Study: Sendable {
    package typealias Kind = StudyKind

    /// One simulated configuration.
    package struct Point: Sendable {
        /// The `variant` column: `base`, a variant's name, or a grid point's parameters.
        package var name: String
        package var scenario: Scenario
        /// The swept parameters' values, as written (sweeps and tunes; empty otherwise).
        package var parameters: [String]
        /// Where the point's own keys were set (a declared variant's keys, a `--vary` or `--grid`
        /// value), by key: refusals name them.
        package var setAt: [String: SourceLocation]

        package init(name: String, scenario: Scenario, parameters: [String] = [], setAt: [String: SourceLocation] = [:]) {
            self.name = name
            self.scenario = scenario
            self.parameters = parameters
            self.setAt = setAt
        }
    }

    package var kind: Kind
    package var points: [Point]
    /// The dotted paths of the swept parameters, in column order.
    package var parameterPaths: [String]
    package var replications: Int
    /// Grid combinations left out because they are not valid scenarios, with the reason.
    package var skipped: [String] = []
    /// The point `compare` reports every other against (paired differences in compare.csv).
    package var baseline: String?

    package init(kind: Kind, points: [Point], parameterPaths: [String] = [], replications: Int) {
        self.kind = kind
        self.points = points
        self.parameterPaths = parameterPaths
        self.replications = replications
    }

    package var taskCount: Int { points.count * replications }

    /// The point and replication of task `t`.
    package func task(_ t: Int) -> (point: Int, replication: Int) { (t / replications, t % replications) }

    /// The tasks of shard `index` of `count` (all tasks when `count` is 1).
    package func tasks(shard: Shard?) -> [Int] {
        guard let shard else { return Array(0..<taskCount) }
        return stride(from: shard.index, to: taskCount, by: shard.count).map { $0 }
    }
}
