import Foundation

/// A task executor (SE-0417) that runs nothing by itself: jobs wait in a queue until the test
/// runs them, one at a time on one thread (``drain(limit:)``). A task started with it as its
/// preference (`Task(executorPreference:)`) runs there with its child tasks and the default
/// actors it calls, so when the queue is empty none of them can move until the test resumes one
/// (steps a clock): what a test that drives real concurrency sees no longer depends on how busy
/// the machine's threads are.
final class ManualTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [UnownedJob] = []
    private var runner: pthread_t?
    private var strays = 0
    private var homes = 0

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { queue.append(job) }
    }

    /// Runs the queued jobs, oldest first, and those they queue, until none is left or `limit`
    /// have run (a livelock in jobs then ends the drain); returns how many ran.
    func drain(limit: Int) -> Int {
        lock.withLock { runner = pthread_self() }
        var ran = 0
        while ran < limit, let job = lock.withLock({ queue.isEmpty ? nil : queue.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
            ran += 1
        }
        return ran
    }

    /// Counts the call as made by a job of the drain or from elsewhere: code the test meant to run
    /// here that ran elsewhere ran beside the drain, and could change state after the queue went empty.
    func witness() {
        let me = pthread_self()
        lock.withLock {
            if let runner, pthread_equal(runner, me) != 0 { homes += 1 } else { strays += 1 }
        }
    }

    /// Calls to ``witness()`` from the thread draining the queue (none: the witness saw nothing).
    var homeCalls: Int { lock.withLock { homes } }
    /// Calls to ``witness()`` from any other thread.
    var strayCalls: Int { lock.withLock { strays } }
}
