import RetryStormEngine
import RetryStormResults
import Synchronization

/// Runs replications of scenarios on `jobs` threads. Each replication is seeded from its index
/// alone and its result is stored by index, so the output does not depend on `jobs` or on which
/// thread finishes first.
package enum ReplicationRunner {
    /// One unit of work: a scenario and the replication index to run.
    package struct Task: Sendable {
        package var scenario: Scenario
        package var replication: Int
        package init(scenario: Scenario, replication: Int) {
            self.scenario = scenario
            self.replication = replication
        }
    }

    /// Runs every task, `jobs` at a time, and returns the results in task order.
    /// - Parameter progress: told after each task (from worker threads); a single task posts its
    ///   simulated time to `progress.simulation`.
    package static func run(
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
