import Dispatch
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
        let slots = Mutex<[ReplicationResult?]>(Array(repeating: nil, count: tasks.count))
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let threads = max(1, min(jobs, tasks.count))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                if i >= tasks.count { break }
                let r = Simulator.run(tasks[i].scenario, replication: tasks[i].replication, options: options)
                slots.withLock { $0[i] = r }
                let finished = done.add(1, ordering: .relaxed).newValue
                progress?(finished, tasks.count)
            }
        }
        return slots.withLock { $0.map { $0! } }
    }
}
