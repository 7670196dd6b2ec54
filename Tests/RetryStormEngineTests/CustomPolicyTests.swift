import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// A caller's own retry code (a ``ClientPolicy`` that is not ``RetryPolicy``) runs through the
/// same engine code as the library's policy: written to behave as a preset, it gives that preset's
/// results to the last bit — the expected values are the engine's own run of the preset, so any
/// difference in how the engine drives the two (bookkeeping, random draws, host state) shows.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct CustomPolicyTests {
    /// The naive-immediate preset (`RetryPolicy.naiveImmediate`: every failure retried at once, the
    /// fourth failure gives up) written from scratch, with the defaults of ``ClientPolicy`` for everything
    /// but the decision.
    struct ImmediateRetries: ClientPolicy {
        var attempts: Int32
        var ambiguity: AmbiguityPolicy

        func decide<R: UniformSource & ~Copyable>(
            after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard,
            now: Nanoseconds, random: inout R
        ) -> RetryDecision {
            // Failures, not attempts, as the library counts: an attempt abandoned by an app restart
            // ended without one.
            record.cycleFailures &+= 1
            return record.cycleFailures < attempts ? record.retry(at: now) : record.stop(.attemptsExhausted)
        }
    }

    /// Full-jitter exponential backoff (base 1 s, at most 60 s, 6 attempts: bench-fleet's policy)
    /// written with the library's ``Backoff`` but none of ``RetryPolicy``: the random draws must
    /// reach it exactly as they reach the library's policy.
    struct FullJitter: ClientPolicy {
        static let library = RetryPolicy(
            backoff: Backoff(kind: .exponential, base: Scenarios.s, max: 60 * Scenarios.s, jitter: .full),
            maxAttempts: 6)
        let backoff = Self.library.backoff

        func decide<R: UniformSource & ~Copyable>(
            after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard,
            now: Nanoseconds, random: inout R
        ) -> RetryDecision {
            record.cycleFailures &+= 1
            guard record.cycleFailures < 6 else { return record.stop(.attemptsExhausted) }
            record.backoffStep &+= 1
            let delay = backoff.delay(retry: Int(record.backoffStep), memory: &record.backoffMemory, random: &random)
            return record.retry(at: Time.adding(now, delay))
        }
    }

    /// A run that retries, times out and sheds: DeterminismTests' outage (5,000 clients, a 20%
    /// outage of 10 s with a linear 20 s recovery, a queue of 800).
    static let scenario = DeterminismTests.scenario

    static func same(_ a: ReplicationResult, _ b: ReplicationResult) -> Bool {
        a.counts == b.counts && a.queueAtEnd == b.queueAtEnd && a.summary == b.summary && a.ttsQuantiles == b.ttsQuantiles
    }

    /// Runs `scenario` with `library` and with `custom`, checking every event's invariants, and
    /// expects identical results; returns the custom run's.
    static func expectSame(
        _ library: RetryPolicy, _ custom: some ClientPolicy, in scenario: Scenario = Self.scenario,
        replication: Int
    ) -> ReplicationResult {
        var preset = scenario
        preset.policy = library
        var mine = scenario
        mine.customPolicy = CustomPolicy(custom)
        let a = Simulator.run(preset, replication: replication, checkInvariants: true)
        let b = Simulator.run(mine, replication: replication, checkInvariants: true)
        #expect(Self.same(a, b))
        #expect(b.invariantViolation == nil)
        return b
    }

    @Test("a custom policy written as naive-immediate gives the preset's results exactly, with writes tracked (blind retries count duplicates)")
    func sameAsPresetTrackingWrites() {
        let b = Self.expectSame(.naiveImmediate, ImmediateRetries(attempts: 4, ambiguity: .blind), replication: 1)
        // Not vacuous: the outage made retries, and blind retries of timed-out writes duplicated some.
        #expect(b.summary.retries > 10_000 && b.summary.gaveUp > 0 && b.summary.duplicates > 0)
    }

    @Test("the same with idempotency keys, where attempts are settled when sent (settle-ahead path) and on every server model path")
    func sameAsPresetSettledAhead() {
        var presetPolicy = RetryPolicy.naiveImmediate
        presetPolicy.ambiguity = AmbiguityPolicy()
        var preset = Self.scenario
        preset.policy = presetPolicy
        var custom = Self.scenario
        custom.customPolicy = CustomPolicy(ImmediateRetries(attempts: 4, ambiguity: AmbiguityPolicy()))
        for allEvents in [false, true] {
            let options = EngineOptions(allEvents: allEvents)
            let a = Simulator.run(preset, replication: 2, options: options)
            let b = Simulator.run(custom, replication: 2, options: options)
            #expect(Self.same(a, b), "allEvents \(allEvents)")
            #expect(b.summary.duplicates == 0 && b.summary.retries > 10_000)
        }
    }

    @Test("a custom full-jitter backoff draws the same random numbers as the library's and gives its results exactly")
    func sameRandomDraws() {
        let b = Self.expectSame(FullJitter.library, FullJitter(), replication: 5)
        #expect(b.summary.retries > 1_000)
    }

    @Test("an app restart keeps a custom policy's schedule as the library's `keep` does")
    func restartKeepsSchedule() {
        var presetPolicy = RetryPolicy.naiveImmediate
        presetPolicy.onRestart = .keep
        var restarting = Self.scenario
        restarting.clients.restart = Scenario.Restart(at: 25 * Scenarios.s, fraction: 0.5)
        let b = Self.expectSame(presetPolicy, ImmediateRetries(attempts: 4, ambiguity: .blind), in: restarting, replication: 0)
        #expect(b.summary.abandoned > 0)
    }

    @Test("a custom policy runs every population's clients")
    func runsEveryPopulation() {
        var scenario = Self.scenario
        var half = scenario.clients
        half.count = scenario.clients.count / 2
        scenario.populations = [
            Scenario.Population(name: "a", clients: half, policy: .naiveImmediate),
            Scenario.Population(name: "b", clients: half, policy: RetryPolicy(backoff: .immediate, maxAttempts: 1))
        ]
        scenario.customPolicy = CustomPolicy(ImmediateRetries(attempts: 1, ambiguity: .blind))
        let r = Simulator.run(scenario, replication: 0, checkInvariants: true)
        // One attempt each, whatever the populations' own policies say.
        #expect(r.summary.retries == 0 && r.summary.attempts == r.summary.operations)
        #expect(r.populations.count == 2 && r.invariantViolation == nil)
    }
}
