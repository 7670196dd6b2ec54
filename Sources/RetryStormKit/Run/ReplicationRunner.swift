import RetryStormEngine
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
    /// - Parameter progress: called after each task with (done, total), from worker threads.
    public static func run(_ tasks: [Task], jobs: Int, options: EngineOptions = EngineOptions(),
                           progress: (@Sendable (Int, Int) -> Void)? = nil) -> [ReplicationResult] {
        let done = Atomic<Int>(0)
        return ParallelMap.map(tasks.count, threads: jobs) { i in
            let r = Simulator.run(tasks[i].scenario, replication: tasks[i].replication, options: options)
            progress?(done.add(1, ordering: .relaxed).newValue, tasks.count)
            return r
        }
    }
}
