import Foundation
import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The laws of hedging, checked on each host that applies ``HedgedAttempt``'s actions: the
/// clients' fleet, a call graph's edge behind a pass-through proxy (`HedgingTests.run`: a
/// frontend of 1 ms own work calling the backend), and the app's `hedging(host:…)` executor on a
/// manual clock, its tasks run one job at a time by the test (``runApp``) so that its copies go
/// out and answer in the same order on every run. The same policy gives the same copies on each.
/// Expected values come from the contract of a fixed delay (copy k goes out k delays after the
/// first while none has answered) and of the freeze (one refusal, then no copy is wanted again:
/// gRPC's `RetriableStream`), traced in each test.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct HedgingHostTests {
    enum Host: String, CaseIterable, CustomTestStringConvertible {
        case fleet, edge, app
        var testDescription: String { rawValue }

        /// The hosts a run checks: all three. The app's case (``runApp``) steps its clock when the
        /// executor has no job left to run, not after a spell of real-time quiet, so a loaded
        /// machine makes it slower, never different, and it has no real-time deadline to miss.
        static var checked: [Host] { [.fleet, .edge, .app] }
    }

    /// What became of a run's copies, as the host counts them. `wanted` and `refused` are the
    /// engine's counters; the app executor counts nothing, so they are nil there, and its
    /// `timers` are the next-copy sleeps it started (nil for the engine).
    struct Tally: Equatable {
        var operations: Int64
        var succeeded: Int64
        /// Operations that ended without success (gave up or blocked).
        var failed: Int64
        /// Copies sent, the first included.
        var attempts: Int64
        /// Answers and timeouts (succeeded, failed, rejected, timed out).
        var outcomes: Int64
        var abandoned: Int64
        var wanted: Int64?
        var sent: Int64?
        var refused: Int64?
        var notNeeded: Int64?
        var timers: Int?
        /// The engine's: operations' mean time to success, seconds; requests served, and served
        /// after their caller had given up on them (nil in the app).
        var ttsMean: Double?
        var served: Int64?
        var wasted: Int64?
    }

    static let ms = 1_000_000 as Int64

    /// The conservation laws every run keeps, whatever its host: each operation succeeded or
    /// failed (the runs end before their horizon), each attempt has an outcome or was abandoned
    /// (none is in flight at the end), and each wanted copy was sent, refused or not needed.
    static func checkLaws(_ t: Tally) {
        #expect(t.succeeded + t.failed == t.operations)
        #expect(t.attempts == t.outcomes + t.abandoned)
        if let wanted = t.wanted { #expect(wanted == t.sent! + t.refused! + t.notNeeded!) }
    }

    /// `operations` operations (10 for the engine, 1 in the app), each hedged with `hedging`
    /// under `budget`, against a service that takes exactly `service` with no queueing and
    /// answers 500 to every request if `failing` (`classifier` tells whether that is retried).
    static func run(
        _ host: Host, hedging: Hedging?, budget: RetryBudget = .unlimited, service: Int64, failing: Bool = false,
        classifier: Classifier = .offlineFirst, times: Scenario.ServiceTime = .deterministic, clients: Int = 10,
        arrival: Scenario.Arrival = .burst(at: 0), timeout: Double? = nil, horizon: Double = 5
    ) async -> Tally {
        switch host {
        case .fleet:
            var sc = FleetHedgingTests.scenario(
                hedging: hedging, clients: clients, arrival: arrival, capacity: 1000 * 1e9 / Double(service), workers: 1000,
                service: times, budget: budget, classifier: classifier, timeout: timeout, horizon: horizon)
            if failing { sc.server.errors = .init(serverError: 1) }
            let r = FleetHedgingTests.run(sc)
            func t(_ c: Counter) -> Int64 { FleetHedgingTests.total(r, c) }
            return Tally(
                operations: r.summary.operations, succeeded: r.summary.succeeded, failed: t(.gaveUp) + t(.blocked),
                attempts: t(.firstAttempts) + t(.retries),
                outcomes: t(.succeeded) + t(.failed) + t(.rejected) + t(.timedOut) + t(.offline), abandoned: t(.abandoned),
                wanted: t(.hedgesWanted), sent: t(.hedgesSent), refused: t(.hedgesRefused), notNeeded: t(.hedgesNotNeeded),
                ttsMean: r.summary.ttsMean, served: t(.served), wasted: t(.wasted))
        case .edge:
            let backend = CallGraphTests.server(
                capacity: 1000 * 1e9 / Double(service), workers: 1000, service: times, errors: failing ? .init(serverError: 1) : .none)
            let r = HedgingTests.run(
                backend: backend, hedging: hedging, clients: clients, arrival: arrival, budget: budget, classifier: classifier,
                timeout: timeout, horizon: horizon)
            func t(_ c: Counter) -> Int64 { r.services[1].total(c) }
            return Tally(
                operations: t(.operations), succeeded: t(.succeeded), failed: t(.gaveUp) + t(.blocked), attempts: t(.firstAttempts) + t(.retries),
                outcomes: t(.succeeded) + t(.failed) + t(.rejected) + t(.timedOut), abandoned: t(.abandoned),
                wanted: t(.hedgesWanted), sent: t(.hedgesSent), refused: t(.hedgesRefused), notNeeded: t(.hedgesNotNeeded),
                ttsMean: r.summary.ttsMean, served: t(.served), wasted: t(.wasted))
        case .app:
            precondition(timeout == nil, "the app's runs have no attempt timeout")
            return await Self.runApp(hedge: hedging!, budget: budget, service: service, failing: failing, classifier: classifier)
        }
    }

    /// One operation in the app: each copy answers `service` after it started on the manual
    /// clock, the first to get there wins. Its task prefers a ``ManualTaskExecutor``, so it, its
    /// copies and timers (child tasks) and the host (a default actor) run only when the test
    /// drains the queue (``drive(_:clock:log:task:)``), on one thread of the test's own: the
    /// copies go out and answer in the same order on every run, however loaded the machine.
    static func runApp(hedge: Hedging, budget: RetryBudget, service: Int64, failing: Bool, classifier: Classifier) async -> Tally {
        var policy = RetryPolicy(backoff: .immediate, maxAttempts: 1, budget: budget)
        policy.classifier = classifier
        policy.hedging = hedge
        let executor = ManualTaskExecutor()
        // Every reading of the clock is a witness: the host reads it in each of its methods.
        let clock = ManualClock(autoAdvance: false) { executor.witness() }
        let log = CopyLog()
        let task = Task(executorPreference: executor) {
            defer { log.markDone() }
            let host = RetryHost(policy: policy, clock: clock)
            var record = OperationRecord()
            var random = FixedUniformSource(0.5)
            return try await hedging(host: host, record: &record, random: &random) { attempt -> Int in
                log.started()
                do {
                    try await clock.hold(for: .nanoseconds(service))
                } catch {
                    log.cancelled()
                    throw error
                }
                log.answered()
                if failing { throw NormalizedError.http(500) }
                return attempt.number
            }
        }
        // A thread of its own: the drive blocks, which on the cooperative pool would hold one of
        // the two threads the other tests share, and a job run there would run nested in the
        // test's own task.
        let drive = await withCheckedContinuation { (c: CheckedContinuation<Drive, Never>) in
            Thread { c.resume(returning: Self.drive(executor, clock: clock, log: log, task: task)) }.start()
        }
        if let problem = drive.problem { Issue.record(Comment(rawValue: problem)) }
        #expect(executor.homeCalls > 0 && executor.strayCalls == 0, "the executor's work ran outside the test's executor")
        // A run that did not end leaves its task asleep for good rather than hang the suite.
        let value = drive.ended ? try? await task.value : nil
        return Tally(
            operations: 1, succeeded: value == nil ? 0 : 1, failed: value == nil ? 1 : 0, attempts: log.starts, outcomes: log.answers,
            abandoned: log.cancels,
            timers: clock.sleeps.count)
    }

    /// How ``drive(_:clock:log:task:)`` ended: whether the operation did, and what went wrong.
    struct Drive: Sendable {
        var ended: Bool
        var problem: String?
    }

    /// Steps the clock more times than this and the run is taken for a bug: a hedged operation of
    /// three copies wakes a sleeper at most five times (two timers, three services).
    static let maxSteps = 1_000
    /// Jobs in one drain: thousands of times what a step queues.
    static let maxJobs = 100_000

    /// Runs the operation to its end: every queued job, then (the queue empty: each copy and
    /// timer asleep on the clock or finished, the executor awaiting them) the clock's next
    /// sleeper, and again. Beyond ``maxSteps``, or idle with nothing asleep, the task is cancelled
    /// (which wakes its sleepers) and drained once more.
    static func drive(_ executor: ManualTaskExecutor, clock: ManualClock, log: CopyLog, task: Task<Int, any Error>) -> Drive {
        var problem: String?
        var steps = 0
        while true {
            if executor.drain(limit: maxJobs) == maxJobs {
                return Drive(ended: log.isDone, problem: "more than \(maxJobs) jobs without a step: a livelock")
            }
            if log.isDone { return Drive(ended: true, problem: problem) }
            if let problem { return Drive(ended: false, problem: problem + "; cancelled, it did not end") }
            if steps == maxSteps {
                problem = "the executor did not finish in \(maxSteps) steps of the clock"
            } else if !clock.step() {
                // With every job run, something that is neither asleep on the clock nor done must
                // wait for work outside the executor (or for nothing at all).
                problem = "the executor waits, with nothing asleep on the clock"
            } else {
                steps += 1
                continue
            }
            task.cancel()
        }
    }

    /// Service 100 ms, copies `delay` apart (0 or 10 ms), 3 at most: copies go out at 0, 1 and
    /// 2 delays, all before the first answers at 100 ms (plus a millisecond's own work first, on
    /// an edge), which outruns the other two. Per operation: 3 attempts, 1 success, 2 abandoned; 2 copies wanted and sent.
    /// Conservation: attempts = outcomes + abandoned (nothing in flight after the run), and
    /// wanted = sent + refused + not needed.
    @Test(
        "a fixed delay shorter than the service time sends max_attempts copies; the winner outruns the rest, abandoned",
        arguments: Host.checked, [0, 10 * Self.ms])
    func delayShorterThanService(host: Host, delay: Int64) async {
        let t = await Self.run(host, hedging: Hedging(delay: .fixed(delay), maxAttempts: 3), service: 100 * Self.ms)
        let n = t.operations
        #expect(n == (host == .app ? 1 : 10))
        #expect(t.succeeded == n && t.attempts == 3 * n && t.abandoned == 2 * n && t.outcomes == n)
        Self.checkLaws(t)
        if let wanted = t.wanted { #expect(wanted == 2 * n && t.sent == 2 * n && t.refused == 0 && t.notNeeded == 0) }
        // The app armed a timer after copies 1 and 2, none after the third (max_attempts).
        if let timers = t.timers { #expect(timers == 2) }
    }

    /// A budget of no retries refuses every copy after the first. The first copy's timer comes at
    /// 10 ms: one copy wanted and refused, and hedging freezes, so no timer is armed again and
    /// nothing more is asked at 20 ms, 30 ms, …; the first copy answers at 100 ms and wins alone.
    /// Per operation: 1 wanted = 0 sent + 1 refused, 1 attempt, 0 abandoned, and in the app one
    /// timer in all (before the freeze the executor slept again after each refusal).
    @Test("a refusal freezes hedging: one copy wanted and refused, no timer after it", arguments: Host.checked)
    func refusalFreezes(host: Host) async {
        let t = await Self.run(
            host, hedging: Hedging(delay: .fixed(10 * Self.ms), maxAttempts: 3), budget: .perRun(retries: 0), service: 100 * Self.ms)
        let n = t.operations
        #expect(t.succeeded == n && t.attempts == n && t.abandoned == 0 && t.outcomes == n)
        Self.checkLaws(t)
        if let wanted = t.wanted {
            #expect(wanted == n && t.sent == 0 && t.refused == n && t.notNeeded == 0)
        }
        if let timers = t.timers { #expect(timers == 1) }
    }

    /// Every answer a 500 after 10 ms, copies 10 s apart (the delay never comes), 3 at most.
    /// Retried: each failure sends the next copy at once (at 0, 10, 20 ms) and the third's ends
    /// the operation: 3 attempts, 3 failed outcomes, 2 copies wanted and sent, none abandoned;
    /// the app armed a timer after copies 1 and 2. Not retried: the first failure ends it (1
    /// attempt, nothing wanted, one timer).
    @Test("a retryable failure sends the next copy at once; a fatal one ends the operation", arguments: Host.checked, [true, false])
    func failureSendsNext(host: Host, retried: Bool) async {
        let t = await Self.run(
            host, hedging: Hedging(delay: .fixed(10_000 * Self.ms), maxAttempts: 3), service: 10 * Self.ms, failing: true,
            classifier: retried ? .offlineFirst : Classifier(retryableStatuses: []))
        let n = t.operations
        let copies: Int64 = retried ? 3 : 1
        #expect(t.failed == n && t.attempts == copies * n && t.outcomes == copies * n && t.abandoned == 0)
        Self.checkLaws(t)
        if let wanted = t.wanted { #expect(wanted == (copies - 1) * n && t.sent == (copies - 1) * n && t.refused == 0) }
        if let timers = t.timers { #expect(timers == Int(copies) - (retried ? 1 : 0)) }
    }

    /// Two copies, the second 50 ms after the first, on a service whose time is exponential with
    /// rate μ = 10/s (1,000 workers at 10,000/s: no queueing); 20,000 operations (Poisson). The
    /// operation ends at T = min(X₁, d + X₂): P(T > t) = e^(−μt) below d, e^(μd)·e^(−2μt) above,
    /// so E[T] = (1 − e^(−μd))/μ + e^(−μd)/(2μ) = 0.069673 s (SD 0.054909 s), against 1/μ = 0.1 s
    /// unhedged; on an edge the frontend's own 1 ms comes first. A second copy goes out when
    /// X₁ > d, with probability e^(−μd) = 0.60653; the loser is in service (no queue), finishes
    /// as wasted work and is abandoned by its caller: abandoned = wasted = second copies, exactly,
    /// at the clients and (since the edges count them) at the called service.
    @Test("two copies at a fixed delay: the mean of the first answer, E[min(X₁, d + X₂)]", arguments: [Host.fleet, .edge])
    func exponentialMean(host: Host) async {
        let arrival = Scenario.Arrival.poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(200))
        func run(_ h: Hedging?) async -> Tally {
            await Self.run(host, hedging: h, service: 100 * Self.ms, times: .exponential, clients: 10_000, arrival: arrival, horizon: 400)
        }
        // On an edge the frontend's own work (exponential, mean 1 ms) adds its mean and a little spread.
        let own = host == .edge ? 0.001 : 0
        let slack = host == .edge ? 0.0002 : 0
        let t = await run(Hedging(delay: .fixed(50 * Self.ms), maxAttempts: 2))
        let ops = Double(t.operations)
        #expect(abs(ops - 20_000) < 4 * 20_000.0.squareRoot())
        #expect(t.succeeded == t.operations)
        Self.checkLaws(t)
        #expect(abs(t.ttsMean! - (own + 0.069673)) <= 4 * 0.054909 / ops.squareRoot() + slack)
        let copies = t.sent!
        let p = exp(-0.5)
        #expect(abs(Double(copies) - ops * p) <= 4 * (ops * p * (1 - p)).squareRoot())
        #expect(t.abandoned == copies && t.wasted == copies && t.served == t.attempts)

        let plain = await run(nil)
        #expect(abs(plain.ttsMean! - (own + 0.1)) <= 4 * 0.1 / ops.squareRoot() + slack)
        #expect(plain.attempts == plain.operations && plain.abandoned == 0)
    }

    /// A percentile delay counts a timed-out copy's timeout (Finagle's backup requests): with
    /// most copies timing out, the p50 rises to the timeout. Service exponential, μ = 10/s (no
    /// queueing), attempt timeout 50 ms, 2 copies, 20,000 operations (Poisson). Per operation the
    /// window gets the first copy's latency (below 48.23 ms with probability 1 − e^(−0.4823) =
    /// 0.3827) or its timeout, and for a second copy its own; 62% of the entries fall in the
    /// timeout's bin, [48.23, 50.33) ms (``LatencyWindow``: 16 bins per doubling), so the delay is
    /// that bin's middle, 47·2^20 ns = 49.283 ms, and a second copy goes out with probability
    /// P(X₁ > 49.283 ms) = e^(−0.49283) = 0.61089 (the bound: 4 binomial SDs; the first 10
    /// operations, before the window reports, send one on their timeout, e^(−0.5), within it).
    /// Were timeouts left out, the window would hold only the answers under 50 ms, its median
    /// near 22 ms, and 80% of operations would send a second copy.
    @Test("a percentile delay counts timed-out copies: with most copies timing out, the p50 rises to the timeout", arguments: [Host.fleet, .edge])
    func percentileCountsTimeouts(host: Host) async {
        let arrival = Scenario.Arrival.poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(200))
        let t = await Self.run(
            host, hedging: Hedging(delay: .percentile(0.5, window: 30_000_000_000), maxAttempts: 2), service: 100 * Self.ms,
            times: .exponential, clients: 10_000, arrival: arrival, timeout: 0.05, horizon: 400)
        let ops = Double(t.operations)
        #expect(abs(ops - 20_000) < 4 * 20_000.0.squareRoot())
        Self.checkLaws(t)
        let p = exp(-10 * Double(47 << 20) / 1e9)
        #expect(abs(Double(t.sent!) - ops * p) <= 4 * (ops * p * (1 - p)).squareRoot())
        #expect(t.wanted == t.sent && t.refused == 0)
    }
}

/// Counts the app's copies: started, answered, cancelled (an outrun copy's task is cancelled).
final class CopyLog: @unchecked Sendable {
    private let lock = NSLock()
    private var s: Int64 = 0, a: Int64 = 0, c: Int64 = 0
    private var done = false
    var starts: Int64 { lock.withLock { s } }
    var answers: Int64 { lock.withLock { a } }
    var cancels: Int64 { lock.withLock { c } }
    var isDone: Bool { lock.withLock { done } }
    func started() { lock.withLock { s += 1 } }
    func answered() { lock.withLock { a += 1 } }
    func cancelled() { lock.withLock { c += 1 } }
    func markDone() { lock.withLock { done = true } }
}
