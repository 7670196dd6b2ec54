import RetryStormEngine
import RetryStormResults
import Synchronization

/// Runs replications of scenarios on `jobs` threads. Each replication is seeded from its index
/// alone and its result is stored by index, so the output does not depend on `jobs` or on which
/// thread finishes first.
public enum ReplicationRunner {
    /// One unit of work: a scenario and the replication index to run.
    public struct Task: Sendable {
        public var scenario: Scenario
        public var replication: Int
        public init(scenario: Scenario, replication: Int) {
            self.scenario = scenario
            self.replication = replication
        }
    }

    /// Runs every task, `jobs` at a time, and returns the results in task order.
    /// - Parameter progress: told after each task (from worker threads); a single task posts its
    ///   simulated time to `progress.simulation`.
    public static func run(
        _ tasks: [Task], jobs: Int, options: EngineOptions = EngineOptions(),
        progress: Progress? = nil
    ) -> [ReplicationResult] {
        let done = Atomic<Int>(0)
        let simulation = tasks.count == 1 ? progress?.simulation : nil
        return ParallelMap.map(tasks.count, threads: jobs) { i in
            let r = Simulator.run(tasks[i].scenario, replication: tasks[i].replication, options: options, progress: simulation)
            progress?.update(done.add(1, ordering: .relaxed).newValue, tasks.count)
            return r
        }
    }
}
