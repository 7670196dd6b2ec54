import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// Parity for the policy's host guards — a concurrency limit, a circuit breaker, client-side
/// throttling, the gRPC and Envoy retry budgets — and for retries under overload, beyond the
/// six cases issue 39 named: an edge runs the same life cycle as the clients, so it must agree on
/// what the issue did not list too.
///
/// A guard is host state: each client keeps its own, and an edge keeps one for all its calls (the
/// calling service's). One client starting 1,000 operations per second (Poisson, 20 s) keeps
/// one guard, as P's edge does, so the two constructions meet the same guard
/// (``EdgeParityTests/backoffUnderBudget()`` does the same for Finagle's budget). Expected values
/// are (a)'s, measured; bounds are 4 standard errors of the difference (``ParityComparison``).
extension EdgeParityTests {
    /// One client, 1,000 operations per second for 20 s.
    static var oneClient: Scenario.Clients {
        .init(count: 1, arrival: .poisson(ratePerClient: 1000, start: 0, until: 20 * s), timeout: s)
    }

    /// Runs `policy` on both constructions over `server` with one client, checks every metric
    /// and returns the comparison.
    @discardableResult
    static func guarded(
        _ name: String, _ policy: RetryPolicy, server: Scenario.Server, attempts max: Int, replications: Int = replications
    ) -> ParityComparison {
        let c = compare(
            name, clients: atClients(policy, server: server, clients: oneClient, horizon: 40),
            edge: onEdge(policy, server: server, clients: oneClient, callTimeout: s, horizon: 40), replications: replications)
        check([c.succeeded, c.lost, c.ttsMean(slack: 1e-5), c.p90.share, c.attempts(max: max), c.abandoned(max: 1), c.refused(max: max - 1)], c)
        return c
    }

    /// S: 1,000 workers at 50,000/s (20 ms exponential service), 20% of answers 503. At most 26
    /// attempts in flight (`policy.concurrency.max_in_flight`), waiting for a slot when full:
    /// about 1,000 × 1.24 × 0.02 = 24.8 attempts in flight are wanted (an M/M/26 at 24.8
    /// erlangs: most attempts wait), so operations queue for slots, and the wake order (the policy
    /// library's `wakeWaiters`: as many waiters as slots are free, oldest first) decides their
    /// time to success. Waits near saturation vary from run to run: 60 replications a side.
    @Test("a concurrency limit that waits: the same slots, the same waits, on an edge")
    func concurrencyLimitWaits() {
        let server = Self.server(capacity: 50_000, workers: 1000, errors: .init(serverError: 0.2, serverErrorStatus: .unavailable))
        var policy = RetryPolicy(backoff: Backoff(kind: .constant, base: 10 * Self.ms, max: 10 * Self.ms), maxAttempts: 3)
        policy.concurrency = ConcurrencyLimit(maxInFlight: 26)
        let c = Self.guarded("7 concurrency limit, wait", policy, server: server, attempts: 3, replications: 60)
        // Without waits the mean time to success is 27.8 ms (measured with a limit of 30, which
        // 24.8 attempts in flight seldom reach). Here operations wait for slots, and the bound is
        // under half of that wait: a wake rule that differs shows in it.
        let mean = c.ttsMean(slack: 1e-5)
        let wait = mean.clients - 0.0278
        #expect(wait > 0.005 && mean.bound < wait / 2)
    }

    /// The same limit failing when full (`when_full: reject`): operations that find 20 attempts
    /// in flight end at once, blocked.
    @Test("a concurrency limit that rejects: the same operations blocked on an edge")
    func concurrencyLimitRejects() {
        let server = Self.server(capacity: 50_000, workers: 1000, errors: .init(serverError: 0.2, serverErrorStatus: .unavailable))
        var policy = RetryPolicy(backoff: Backoff(kind: .constant, base: 10 * Self.ms, max: 10 * Self.ms), maxAttempts: 3)
        policy.concurrency = ConcurrencyLimit(maxInFlight: 20, whenFull: .reject)
        let c = Self.guarded("8 concurrency limit, reject", policy, server: server, attempts: 3)
        #expect(c.lost.clients > 0.01)
    }

    /// A breaker over the last 20 calls opening at a 50% failure rate for 200 ms, then one probe,
    /// waiting while open; S answers 45% of requests 503, so the window often crosses 50% and the
    /// breaker holds attempts back.
    @Test("a circuit breaker: the same trips and holds on an edge")
    func circuitBreaker() {
        let server = Self.server(capacity: 50_000, workers: 1000, errors: .init(serverError: 0.45, serverErrorStatus: .unavailable))
        var policy = RetryPolicy(backoff: Backoff(kind: .constant, base: 10 * Self.ms, max: 10 * Self.ms), maxAttempts: 4)
        policy.breaker = CircuitBreaker(window: .count(20), failureRateThreshold: 0.5, openDuration: CircuitBreaker.fixed(200 * Self.ms))
        Self.guarded("9 circuit breaker", policy, server: server, attempts: 4)
    }

    /// Client-side throttling (Google SRE's, k = 2 over a 2 s window) through an outage: S
    /// answers every request 503 from 5 s to 8 s (`server.errors.window`), then none. During
    /// the outage accepts fall and the throttle refuses attempts locally
    /// (max(0, (requests − 2 × accepts) / (requests + 1))); after it, accepts come back and the
    /// refusals stop within about a window.
    @Test("adaptive throttling through an outage: the same local refusals on an edge")
    func adaptiveThrottle() {
        let outage = Scenario.ErrorMix(serverError: 1, serverErrorStatus: .unavailable, window: 5 * Self.s..<8 * Self.s)
        let server = Self.server(capacity: 50_000, workers: 1000, errors: outage)
        var policy = RetryPolicy(backoff: Backoff(kind: .constant, base: 10 * Self.ms, max: 10 * Self.ms), maxAttempts: 3)
        policy.throttle = AdaptiveThrottle(k: 2, window: 2 * Self.s)
        let c = Self.guarded("10 adaptive throttle", policy, server: server, attempts: 3)
        let refused = c.refused(max: 2)
        #expect(c.lost.clients > 0.1 && refused.clients > 0.01 && refused.bound < refused.clients / 4)
    }

    /// gRPC's retry throttling (100 tokens, 0.1 back per success) against 40% 503s: the
    /// tokens run low and retries are refused.
    @Test("gRPC retry throttling: the same refused retries on an edge")
    func grpcThrottling() {
        let server = Self.server(capacity: 50_000, workers: 1000, errors: .init(serverError: 0.4, serverErrorStatus: .unavailable))
        var policy = RetryPolicy(backoff: Backoff(kind: .constant, base: 10 * Self.ms, max: 10 * Self.ms), maxAttempts: 4)
        policy.budget = .grpc(GRPCRetryThrottling(maxTokens: 100, tokenRatio: 0.1))
        let c = Self.guarded("11 gRPC throttling", policy, server: server, attempts: 4)
        #expect(c.refused(max: 3).clients > 0.01)
    }

    /// Envoy's retry budget (20% of active requests, at least 3 retries at once) against 40%
    /// 503s: the budget reads the attempts in flight, which the clients' guard and the edge's
    /// must count alike.
    @Test("Envoy's retry budget: the same refused retries on an edge")
    func envoyBudget() {
        let server = Self.server(capacity: 50_000, workers: 1000, errors: .init(serverError: 0.4, serverErrorStatus: .unavailable))
        var policy = RetryPolicy(backoff: Backoff(kind: .constant, base: 10 * Self.ms, max: 10 * Self.ms), maxAttempts: 4)
        policy.budget = .envoy(EnvoyRetryBudget(percent: 0.2, minConcurrency: 3))
        Self.guarded("12 Envoy budget", policy, server: server, attempts: 4)
    }

    /// Retries under overload, many clients: S has 50 workers at 900/s (55.6 ms exponential
    /// service) and a queue of at most 200; 2,000 clients offer about 1,000 operations per second
    /// (over capacity), each attempt timing out at 300 ms, 3 attempts, exponential backoff from
    /// 50 ms with full jitter. Timeouts, shed requests and retries feed each other, as in a storm.
    @Test("retries under overload: the same storm on an edge")
    func overload() {
        let server = Self.server(capacity: 900, workers: 50, limit: 200)
        let policy = RetryPolicy(
            backoff: Backoff(kind: .exponential, base: 50 * Self.ms, max: Self.s, jitter: .full), maxAttempts: 3)
        let c = Self.compare(
            "13 overload",
            clients: Self.atClients(policy, server: server, clients: Self.fleet(timeout: 300 * Self.ms), horizon: 40),
            edge: Self.onEdge(policy, server: server, clients: Self.fleet(timeout: nil), callTimeout: 300 * Self.ms, horizon: 40))
        Self.check([c.succeeded, c.lost, c.ttsMean(slack: 1e-5), c.p90.share, c.attempts(max: 3), c.abandoned(max: 1), c.refused(max: 2)], c)
        #expect(c.lost.clients > 0.01)
    }
}
