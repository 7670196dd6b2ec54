import RetryStormEngine

/// Runs a study's tasks (or a shard of them) on `jobs` threads.
package enum StudyRunner {
    /// One finished task.
    package struct TaskResult: Sendable {
        package var task: Int
        package var result: ReplicationResult
    }

    /// Runs `tasks` of `study` and returns their results in task order.
    /// - Parameter progress: told after each task, from worker threads.
    package static func run(
        _ study: Study, tasks: [Int], jobs: Int, options: EngineOptions = EngineOptions(),
        progress: Progress? = nil
    ) -> [TaskResult] {
        let work = tasks.map { t -> ReplicationRunner.Task in
            let (p, r) = study.task(t)
            return ReplicationRunner.Task(scenario: study.points[p].scenario, replication: r)
        }
        let results = ReplicationRunner.run(work, jobs: jobs, options: options, progress: progress)
        return zip(tasks, results).map { TaskResult(task: $0, result: $1) }
    }
}
