import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

private let s = Scenarios.s

/// Retry budgets and circuit breakers inside the engine, with exact outcomes: small scenarios
/// whose every attempt is worked out by hand from the libraries' semantics, each test citing the
/// library's own source or specification for them (the RetryPolicy package checks the same rules
/// one call at a time). Nothing random moves: the `flaky` server fails every attempt (failure
/// share 1: GSL's Bernoulli draw is u < 1 for u in [0, 1)), closed-loop clients think for 0 s (an
/// exponential draw of mean 0), and the outage scenario's server is deterministic. Each runs both
/// ways (attempt outcomes settled ahead, and every happening an event) with an event limit, so a
/// livelock fails at once instead of hanging the suite.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct GuardOutcomeTests {
    static let modes = [false, true]

    static func run(_ sc: Scenario, allEvents: Bool) -> ReplicationResult {
        Simulator.run(sc, replication: 0, options: EngineOptions(checkInvariants: true, allEvents: allEvents, maxEvents: 100_000))
    }

    /// `clients` closed-loop clients, each starting its next operation the moment the last one
    /// ended, from 0 s until `until`, against a server that answers every attempt 500 after
    /// `latency` (retryable: a server error in the default classifier).
    static func failingServer(clients: Int, latency: Double, until: Double, policy: RetryPolicy) -> Scenario {
        Scenario(
            name: "always-failing", seed: 1, horizon: 30 * s, bucket: s,
            clients: .init(count: clients, arrival: .closed(think: 0, start: 0, spread: 0, until: Scenarios.ns(until)), timeout: nil),
            server: .init(capacity: 1_000_000, profile: .constant, model: .flaky(.init(failure: 1, latency: Scenarios.ns(latency)))),
            policy: policy)
    }

    /// gRPC A6 retry throttling with the proposal's example, maxTokens 10 and tokenRatio 0.1
    /// (gRFC A6, `grpc/proposal`'s `A6-client-retries.md`, "Retry Throttling"; grpc-go's
    /// `retryThrottler` in `clientconn.go`): the count starts at maxTokens, each failure takes 1
    /// (grpc-go takes it before it compares), each success gives back tokenRatio, and no retry
    /// goes out while the count is at or below maxTokens / 2; so failures take it to 9, 8, 7 and
    /// 6, each retried, then to 5, not retried. 3 clients, each with its own token count; every
    /// attempt fails after 0.1 s; retries 1 s apart, up to 10 attempts; operations start until
    /// 9.95 s.
    ///
    /// Per client: operation 1 starts at 0; its failures at 0.1, 1.2, 2.3, 3.4 take the count to 9,
    /// 8, 7, 6, each > 5, so each is retried 1 s later; the fifth failure, at 4.5, takes it to 5:
    /// not > 5, the retry is refused (budget) and the operation gives up — 5 attempts, 4 retries.
    /// Every later operation fails once (count 4, 3, … 0, then stays 0), is refused and gives up
    /// 0.1 s after it started: operations at 4.5, 4.6, … 9.9, which is 55 of them.
    /// So per client 56 operations, 60 attempts, 4 retries, 56 refused by the budget, 56 gave up.
    @Test("gRPC throttling (10, 0.1), every attempt failing: 4 retries, then every retry refused", arguments: modes)
    func grpcThrottling(allEvents: Bool) {
        let policy = RetryPolicy(backoff: Backoff(kind: .constant, base: s, max: s), maxAttempts: 10, budget: .grpc(.a6Example))
        let r = Self.run(Self.failingServer(clients: 3, latency: 0.1, until: 9.95, policy: policy), allEvents: allEvents)
        let m = r.summary
        #expect(r.invariantViolation == nil && !r.eventLimitReached)
        #expect(m.operations == 3 * 56 && m.attempts == 3 * 60 && m.retries == 3 * 4)
        #expect(m.budgetDenied == 3 * 56 && m.gaveUp == 3 * 56 && m.succeeded == 0 && m.failed == 3 * 60)
    }

    /// Finagle's `RetryBudget` with no reserve (`twitter/finagle`'s
    /// `finagle-core/src/main/scala/com/twitter/finagle/service/RetryBudget.scala`, over
    /// `twitter/util`'s `util-core/src/main/scala/com/twitter/util/TokenBucket.scala`): ttl 60 s,
    /// minRetriesPerSec 0, percentCanRetry 0.2, so each request deposits 1000 and a retry withdraws
    /// floor(1000 / 0.2) = 5000, allowed iff the window's sum ≥ 5000 (nothing expires in the 5 s
    /// run). 2 clients; every attempt fails after 0.1 s; retries 1 s apart, up to 3 attempts;
    /// operations start until 4.95 s.
    ///
    /// Per client: operations 1–4 deposit (sum 1000 … 4000) and are refused their retry; operation
    /// 5 brings the sum to 5000, its retry is allowed (sum back to 0) and its second failure is
    /// refused. A cycle of five operations takes 4 × 0.1 + (0.1 + 1 + 0.1) = 1.6 s: they start at
    /// 0, 1.6 and 3.2 s, and a fourth cycle fits two operations (4.8, 4.9) before 4.95.
    /// So per client 17 operations, 3 retries, 20 attempts; every operation ends refused: 17.
    @Test("Finagle ratio budget (20 %, no reserve), every attempt failing: one retry per five requests", arguments: modes)
    func finagleRatio(allEvents: Bool) {
        let budget = FinagleRetryBudget(ttl: 60 * s, minRetriesPerSecond: 0, percentCanRetry: 0.2)
        let policy = RetryPolicy(backoff: Backoff(kind: .constant, base: s, max: s), maxAttempts: 3, budget: .ratio(budget))
        let r = Self.run(Self.failingServer(clients: 2, latency: 0.1, until: 4.95, policy: policy), allEvents: allEvents)
        let m = r.summary
        #expect(r.invariantViolation == nil && !r.eventLimitReached)
        #expect(m.operations == 2 * 17 && m.attempts == 2 * 20 && m.retries == 2 * 3)
        #expect(m.budgetDenied == 2 * 17 && m.gaveUp == 2 * 17)
    }

    /// One closed-loop client (time out an attempt after 0.5 s) against one worker that serves a
    /// request in 0.1 s with no room to wait (a busy worker answers 503 at once), 10 ms of network
    /// each way, and capacity 0 from 1.25 s to 5 s. Operations start until 9.95 s.
    ///
    /// Before the outage each operation takes 0.12 s (0.01 there, 0.1 served, 0.01 back): ten of
    /// them succeed, at 0 … 1.08 s. The eleventh is sent at 1.2 s, reaches the worker at 1.21 and
    /// has 0.06 s of work left when capacity goes at 1.25: it finishes at 5.06 (wasted), and its
    /// client times it out at 1.7. Until 5.06 every attempt that reaches the worker gets 503 and
    /// its answer comes back 0.02 s after it was sent. After that, 0.12 s per operation again.
    static func outage(policy: RetryPolicy) -> Scenario {
        Scenario(
            name: "outage", seed: 1, horizon: 30 * s, bucket: s,
            clients: .init(count: 1, arrival: .closed(think: 0, start: 0, spread: 0, until: Scenarios.ns(9.95)), timeout: Scenarios.ns(0.5)),
            server: .init(
                capacity: 10,
                profile: .outage(at: Scenarios.ns(1.25), duration: Scenarios.ns(3.75), fraction: 0, recovery: .constant, ramp: 0),
                model: .queue(.init(workers: 1, service: .deterministic, limit: 0, dropExpired: false))),
            policy: policy, network: .init(shape: .constant, mean: Scenarios.ns(0.01)))
    }

    /// The AWS SDKs' pre-2026 retry quota (botocore's `botocore/retries/quota.py` and
    /// `botocore/retries/standard.py`; aws-sdk-go-v2's `aws/retry/standard.go` and
    /// `aws/ratelimit/token_rate_limit.go`): 5 per retry, 10 for a retry after a timeout, +1 for a
    /// success without retries, never above capacity, nothing back for a failure; here with a
    /// capacity of 20 instead of 500, so that one outage drains it. Retries 0.5 s apart, up to 5
    /// attempts.
    ///
    /// The ten first operations succeed without retries: 20 + 1 is capped, 20. Operation 11: the
    /// timeout at 1.7 takes 10 (→ 10), the 503s at 2.22 and 2.74 take 5 each (→ 5 → 0), the 503
    /// at 3.26 needs 5 of 0: refused, gave up (4 attempts, 3 retries). Every operation after it
    /// gets 503 and is refused its retry, 0.02 s each: those sent at 3.26, 3.28, … 5.04 reach the
    /// worker before 5.06 (90 of them). The one sent at 5.06 is served and succeeds (+1), and so
    /// do the 40 that follow, 0.12 s apart, from 5.18 to 9.86.
    /// So 142 operations: 51 succeeded, 91 gave up, all 91 refused by the quota; attempts
    /// 10 + 4 + 90 + 41 = 145; 93 answered 503; 1 timed out.
    @Test("AWS quota (capacity 20, costs 5 and 10) through an outage: 91 retries refused, exactly", arguments: modes)
    func awsQuota(allEvents: Bool) {
        let quota = AWSRetryQuota(capacity: 20, retryCost: 5, timeoutCost: 10, throttlingCost: 5, noRetryIncrement: 1)
        let policy = RetryPolicy(backoff: Backoff(kind: .constant, base: s / 2, max: s / 2), maxAttempts: 5, budget: .aws(quota))
        let r = Self.run(Self.outage(policy: policy), allEvents: allEvents)
        let m = r.summary
        #expect(r.invariantViolation == nil && !r.eventLimitReached)
        #expect(m.operations == 142 && m.succeeded == 51 && m.gaveUp == 91 && m.budgetDenied == 91)
        #expect(m.attempts == 145 && m.retries == 3 && m.rejected == 93 && m.timedOut == 1)
        #expect(m.wasted == 1)
    }

    /// A breaker that opens after 3 failures in a row (Finagle's consecutive-failures accrual,
    /// `FailureAccrualPolicy.consecutiveFailures` in `twitter/finagle`'s
    /// `finagle-core/src/main/scala/com/twitter/finagle/liveness/FailureAccrualPolicy.scala`, with
    /// 3 for its default 5), stays open 2 s, then lets one probe through (half-open): a probe's
    /// success closes it, its failure opens it again. Attempts that meet it open wait for it.
    /// Retries 0.5 s apart, up to 4 attempts.
    ///
    /// Operation 11 (see ``outage(policy:)``): timeout at 1.7 (1 in a row), 503 at 2.22 (2), 503 at
    /// 2.74 (3): the breaker opens until 4.74. The retry due at 3.24 waits (held back). At 4.74 it
    /// is half-open, the probe is operation 11's fourth attempt: 503 at 4.76 (the worker is busy
    /// until 5.06), so it opens again until 6.76, and the operation, out of attempts, gives up.
    /// Operation 12 starts at 4.76 and waits (held back); at 6.76 it is the probe, served 6.77–6.87:
    /// success at 6.88 closes the breaker. Then operations every 0.12 s from 6.88 to 9.88: 26.
    /// So 38 operations: 37 succeeded, 1 gave up; 41 attempts (3 retries), 3 answered 503, 1
    /// timed out, 2 held back; the breaker opened twice and closed once.
    @Test(
        "a consecutive-failures breaker through an outage: opens at the third failure, reopens on a failed probe, closes on a good one",
        arguments: modes)
    func consecutiveBreaker(allEvents: Bool) {
        let breaker = CircuitBreaker(
            window: .consecutive(3), failureRateThreshold: 1, openDuration: CircuitBreaker.fixed(2 * s),
            halfOpenProbes: 1, whenOpen: .wait)
        let policy = RetryPolicy(backoff: Backoff(kind: .constant, base: s / 2, max: s / 2), maxAttempts: 4, breaker: breaker)
        let r = Self.run(Self.outage(policy: policy), allEvents: allEvents)
        let m = r.summary
        #expect(r.invariantViolation == nil && !r.eventLimitReached)
        #expect(m.operations == 38 && m.succeeded == 37 && m.gaveUp == 1 && m.budgetDenied == 0)
        #expect(m.attempts == 41 && m.retries == 3 && m.rejected == 3 && m.timedOut == 1 && m.heldBack == 2)
        // Operation 12 waited from 4.76 for the probe at 6.76 and succeeded at 6.88: 2.12 s, to the
        // microsecond (service under a capacity profile is found by integrating it in floating point).
        #expect(abs(m.ttsSuccessMax - 2.12) < 1e-6)
        // The one that gave up never succeeded: the longest time to success over every operation is never.
        #expect(m.ttsMax == .infinity)
    }
}
