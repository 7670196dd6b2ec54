import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// Issue 39, item 5, second bullet: the same policy at the clients and on an edge behind a
/// pass-through proxy gives users the same outcomes (DESIGN.md, "One attempt life cycle").
///
/// Each case runs two constructions over the same server model S:
/// - (a) the policy at the clients: clients → S;
/// - (b) clients that make a single attempt (no retries, no credential refresh, a timeout that
///   never fires before the edge's call ends) → P → S, where P is a pass-through proxy (a queue of
///   1,000 workers at 10⁹ requests per second, so 1 µs of deterministic service, no errors, no
///   limits, releasing its worker while it calls) whose one call to S carries the policy under test.
///
/// Compared: what users see (the shares of operations succeeded and lost, the mean and the p90 of
/// time to success) and what S sees (first attempts + retries per operation; hedged copies
/// abandoned; retries refused). (a)'s figures come from the clients' summary; (b)'s user outcomes
/// from the clients' summary and S's counts from `services[1]` (as `CallGraphTests` reads them).
/// The expected value of every metric is (a)'s, measured: the edge must reproduce it. Bounds are 4
/// standard errors of the difference, derived in ``ParityComparison``; each case also checks that
/// its bounds would catch the drift it guards against (a metric whose bound is wider than the
/// drift would prove nothing).
///
/// Before issue 39 an edge lost the ambiguous writes its policy reconciles (20% of operations)
/// and counted no outrun copy as abandoned; these cases caught both.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct EdgeParityTests {
    static let ms = 1_000_000 as Int64
    static let s = 1_000_000_000 as Int64
    /// Replications per construction (seeds 0…R−1 of the scenario's seed), unless a case needs more.
    static let replications = 20

    /// S: a queue of `workers` workers serving `capacity` requests per second, exponential
    /// service (so no two operations tie), with `errors`.
    static func server(
        capacity: Double, workers: Int, limit: Int? = nil, dropExpired: Bool = false, shedRetryAfter: Int64? = nil,
        errors: Scenario.ErrorMix = .none
    ) -> Scenario.Server {
        .init(
            capacity: capacity, profile: .constant,
            model: .queue(
                .init(workers: workers, service: .exponential, limit: limit, dropExpired: dropExpired, shedRetryAfter: shedRetryAfter)),
            errors: errors)
    }

    /// P: ample capacity, negligible service time (1 µs), no errors, no limits.
    static let proxy = Scenario.Server(
        capacity: 1e9, profile: .constant, model: .queue(.init(workers: 1000, service: .deterministic, limit: nil, dropExpired: false)))

    /// The clients of (b): one attempt, no credential refresh (everything the policy does is the edge's).
    static let singleAttempt = RetryPolicy(backoff: .immediate, maxAttempts: 1, maxAuthRefreshes: 0)

    /// (a): `clients` running `policy` against `server`.
    static func atClients(_ policy: RetryPolicy, server: Scenario.Server, clients: Scenario.Clients, horizon: Double) -> Scenario {
        Scenario(name: "parity-clients", seed: 39, horizon: Scenarios.ns(horizon), bucket: s, clients: clients, server: server, policy: policy)
    }

    /// (b): the same clients with a single attempt and `edgeTimeout`'s worth of patience, through P,
    /// whose call to `server` carries `policy` with `callTimeout` (each attempt's) and, when
    /// `propagate`, the clients' deadline.
    static func onEdge(
        _ policy: RetryPolicy, server: Scenario.Server, clients: Scenario.Clients, callTimeout: Int64?, propagate: Bool = false,
        horizon: Double
    ) -> Scenario {
        var own = clients
        own.timeout = 100 * s
        var sc = Scenario(
            name: "parity-edge", seed: 39, horizon: Scenarios.ns(horizon), bucket: s, clients: own, server: proxy, policy: singleAttempt)
        sc.services = [
            .init(
                name: "P", server: proxy, releaseWhileCalling: true,
                calls: [.init(to: 1, timeout: callTimeout, policy: policy, propagateDeadline: propagate)]),
            .init(name: "S", server: server)
        ]
        return sc
    }

    static func run(_ sc: Scenario, _ i: Int) -> ReplicationResult {
        let r = Simulator.run(sc, replication: i, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        #expect(!r.eventLimitReached)
        return r
    }

    /// Runs both constructions, prints every metric (the report's figures) and returns the comparison.
    static func compare(_ name: String, clients a: Scenario, edge b: Scenario, replications: Int = replications) -> ParityComparison {
        let c = ParityComparison(
            name, clients: (0..<replications).map { ParityOutcome(clients: run(a, $0)) },
            edge: (0..<replications).map { ParityOutcome(edge: run(b, $0)) })
        print(c)
        func perReplication(_ side: [ParityOutcome]) -> String {
            side.map { String(format: "%.4f", $0.attemptsAtS / $0.operations) }.joined(separator: " ")
        }
        print("  [\(name)] attempts at S per operation, per replication: clients \(perReplication(c.a)); edge \(perReplication(c.b))")
        return c
    }

    /// Checks each metric and prints it.
    static func check(_ metrics: [ParityMetric], _ c: ParityComparison) {
        for m in metrics {
            print("  [\(c.name)] \(m)")
            #expect(m.holds, "\(c.name): \(m)")
        }
    }

    /// 2,000 clients starting Poisson operations at 0.5 per second each for 20 s (about 20,000
    /// operations per replication, 1,000 per second), with `timeout` per attempt.
    static func fleet(timeout: Int64?, deadline: Int64? = nil, rate: Double = 0.5, credentialLifetime: Int64? = nil) -> Scenario.Clients {
        .init(
            count: 2000, arrival: .poisson(ratePerClient: rate, start: 0, until: 20 * s), timeout: timeout,
            credentialLifetime: credentialLifetime, deadline: deadline)
    }

    // MARK: - 1. Ambiguous writes with reconcile

    /// S (1,000 workers at 50,000/s: 20 ms exponential service, no queueing at 1,000/s) applies
    /// every write but loses the answer of 20% of them (`server.errors.ambiguous: 0.2`). The
    /// policy: 4 attempts, 10 ms constant backoff, idempotency keys, reconcile at once, 200 ms per
    /// attempt. At the clients an ambiguous attempt times out at 200 ms, the status query finds the
    /// write applied and the operation is confirmed: nothing is lost, and the mean time to success
    /// is about 0.8 × 20 + 0.2 × (200 + 20) = 60 ms.
    ///
    /// On the edge the call's status query goes to S, which knows it applied the write
    /// (`GraphCall.applied`), and the call is confirmed. Before issue 39 the edge ended the call
    /// `ambiguousOutcome` at its first ambiguous failure: about 20% lost and a mean of about
    /// 20 ms (only the unambiguous successes), which every metric here catches.
    @Test("ambiguous writes with reconcile: confirmed at the clients, the same on an edge")
    func ambiguousWrites() {
        let server = Self.server(capacity: 50_000, workers: 1000, errors: .init(ambiguous: 0.2))
        let policy = RetryPolicy(
            backoff: Backoff(kind: .constant, base: 10 * Self.ms, max: 10 * Self.ms), maxAttempts: 4,
            ambiguity: AmbiguityPolicy(idempotency: .key, reconcile: true, reconcileDelay: 0))
        let c = Self.compare(
            "1 ambiguous writes",
            clients: Self.atClients(policy, server: server, clients: Self.fleet(timeout: 200 * Self.ms), horizon: 40),
            edge: Self.onEdge(policy, server: server, clients: Self.fleet(timeout: nil), callTimeout: 200 * Self.ms, horizon: 40))
        let mean = c.ttsMean(slack: 1e-5)
        Self.check([c.succeeded, c.lost, mean, c.p90.share, c.attempts(max: 4), c.abandoned(max: 1), c.refused(max: 3)], c)
        // The known drift, 20% lost and 60 → 20 ms, lies far outside the bounds.
        #expect(c.lost.bound < 0.02 && c.succeeded.bound < 0.02 && mean.bound < 0.004)
    }

    // MARK: - 2. Hedging

    /// S: 1,000 workers at 10,000/s, exponential service of mean 100 ms (μ = 10/s; about 130
    /// workers busy: no queueing). The policy: one attempt hedged with a second copy 50 ms after
    /// the first, no timeout. At the clients the operation ends at min(X₁, d + X₂), mean
    /// (1 − e^(−μd))/μ + e^(−μd)/(2μ) = 69.7 ms (`FleetHedgingTests`); the second copy goes out
    /// with probability e^(−0.5) = 0.607 and, served in parallel, the loser is abandoned: about
    /// 0.6 abandoned copies per operation and 1.6 attempts at S.
    ///
    /// On the edge an outrun copy counts `abandoned` at S, as at the clients (before issue 39
    /// nothing counted it there: 0 against 0.6 per operation).
    @Test("hedging at a fixed delay: the same first answers and the same copies abandoned")
    func hedging() {
        let server = Self.server(capacity: 10_000, workers: 1000)
        var policy = RetryPolicy(backoff: .immediate, maxAttempts: 1)
        policy.hedging = Hedging(delay: .fixed(50 * Self.ms), maxAttempts: 2)
        let c = Self.compare(
            "2 hedging",
            clients: Self.atClients(policy, server: server, clients: Self.fleet(timeout: nil), horizon: 40),
            edge: Self.onEdge(policy, server: server, clients: Self.fleet(timeout: nil), callTimeout: nil, horizon: 40))
        let abandoned = c.abandoned(max: 1)
        let mean = c.ttsMean(slack: 1e-5)
        Self.check([c.succeeded, c.lost, mean, c.p90.share, c.attempts(max: 2), abandoned, c.refused(max: 1)], c)
        // An edge that counts no abandoned copy (0 against about 0.6 per operation) is caught.
        #expect(abandoned.bound < abandoned.clients / 2)
        #expect(mean.bound < 0.1 * mean.clients)
    }

    // MARK: - 3. Retry-After

    /// S sheds with Retry-After: 20 workers at 1,000/s (20 ms exponential service) and no room to
    /// wait (`server.queue.limit: 0`), so a request that finds every worker busy is answered 503
    /// with `Retry-After: 200ms` (`server.shed_retry_after`) at once: an Erlang loss system.
    /// Offered about 800 first attempts per second (16 erlangs on 20 workers: Erlang B ≈ 5.6%
    /// shed, a little more with the retries). The policy honours the hint
    /// (`ServerHintPolicy.atLeast`, the default): 5 attempts, exponential backoff from 10 ms (full
    /// jitter, at most 1 s), each retry of a shed attempt no sooner than 200 ms after it; 1 s per
    /// attempt. Sheds bunch in time, so operations are not quite independent: 40 replications a
    /// side (each under 20 ms of run time), whose spread carries the bound where it exceeds the
    /// independent floor.
    ///
    /// The edge reads S's Retry-After (`GraphServer.retryAfter(_:from:)`).
    @Test("Retry-After honoured: the same retries, no sooner than the server asked, on an edge")
    func retryAfter() {
        let server = Self.server(capacity: 1000, workers: 20, limit: 0, shedRetryAfter: 200 * Self.ms)
        let policy = RetryPolicy(
            backoff: Backoff(kind: .exponential, base: 10 * Self.ms, max: Self.s, jitter: .full), maxAttempts: 5, serverHints: .atLeast)
        let c = Self.compare(
            "3 Retry-After",
            clients: Self.atClients(policy, server: server, clients: Self.fleet(timeout: Self.s, rate: 0.4), horizon: 40),
            edge: Self.onEdge(policy, server: server, clients: Self.fleet(timeout: nil, rate: 0.4), callTimeout: Self.s, horizon: 40),
            replications: 40)
        let mean = c.ttsMean(slack: 1e-5)
        let attempts = c.attempts(max: 5)
        Self.check([c.succeeded, c.lost, mean, c.p90.share, attempts, c.abandoned(max: 1), c.refused(max: 4)], c)
        // Ignoring the hint (retrying after the 10 ms backoff instead of 200 ms) would take about
        // 190 ms off each retry: (attempts per operation − 1) × 0.19 s off the mean. The bound
        // catches half of that.
        #expect(attempts.clients > 1.02 && mean.bound < 0.5 * (attempts.clients - 1) * 0.19)
    }

    // MARK: - 4. Credential expiry

    /// Credentials live 10 s (`clients.credentials.lifetime`; each client's first expires at a
    /// uniform time in the first 10 s): an expired one is answered 401 until refreshed. S: 1,000
    /// workers at 50,000/s (20 ms). The policy: 3 attempts, 10 ms constant backoff, one refresh per
    /// operation taking 50 ms. At the clients every operation succeeds; a client's first operation
    /// after each expiry (one or two per client over 20 s: measured, 16% of operations) takes the
    /// 401, refreshes and retries.
    ///
    /// Credentials are the clients' own, checked at the door of the service they call (a
    /// capability a graph states rather than copies: a called service checks no caller's
    /// credentials, and a refresh on an edge renews nothing — docs/architecture.md, "Requests and
    /// calls"). So behind P it is P's door that answers the 401 and the clients that refresh (one
    /// refresh, then their one attempt again), while the edge's call to S runs the policy unused.
    /// Users see what (a) shows; the attempts at the service the clients call (S in (a), P in (b))
    /// are the same; and S, behind P, meets no 401: the edge retries nothing (exact).
    @Test("credential expiry: the clients refresh at the service they call, through P or not, with the same outcomes")
    func credentialExpiryThroughProxy() {
        let server = Self.server(capacity: 50_000, workers: 1000)
        let policy = RetryPolicy(
            backoff: Backoff(kind: .constant, base: 10 * Self.ms, max: 10 * Self.ms), maxAttempts: 3, maxAuthRefreshes: 1,
            authRefreshDelay: 50 * Self.ms)
        let clients = Self.fleet(timeout: Self.s, credentialLifetime: 10 * Self.s)
        var edge = Self.onEdge(policy, server: server, clients: clients, callTimeout: Self.s, horizon: 40)
        edge.policy = RetryPolicy(backoff: .immediate, maxAttempts: 1, maxAuthRefreshes: 1, authRefreshDelay: 50 * Self.ms)
        let c = Self.compare(
            "4 credential expiry, refreshed by the clients",
            clients: Self.atClients(policy, server: server, clients: clients, horizon: 40), edge: edge)
        let door = c.attemptsAtDoor(max: 3)
        Self.check([c.succeeded, c.lost, c.ttsMean(slack: 1e-5), c.p90.share, door, c.abandoned(max: 1), c.refused(max: 2)], c)
        // The refreshes are a few percent of operations or more: the 401s missing at the door, or
        // landing on S too, are caught.
        #expect(door.clients - 1 > 0.02 && door.bound < (door.clients - 1) / 2)
        #expect(c.b.allSatisfy { $0.retriesAtS == 0 })
    }

    // MARK: - 5. Deadlines

    /// An end-to-end deadline of 250 ms (`clients.deadline`). S: 1,000 workers at 20,000/s
    /// (50 ms exponential service), 30% of answers 503 after processing, dropping requests whose
    /// deadline passed (`drop_expired`, as a gRPC server does; a call that propagates its deadline
    /// sets it on the service it reaches, so (a)'s S sets it too: the same model). The policy: 4
    /// attempts, 20 ms constant backoff, 100 ms per attempt cut to the time left, no attempt at or
    /// after the deadline. (b): the clients keep the 250 ms deadline (their single attempt's
    /// timeout is cut to it) and P's call propagates it (`deadline: propagate`), so the edge cuts
    /// its attempts and retries to the same deadline.
    ///
    /// The clients follow the rule through `followByDeadline` / `cutToDeadline`
    /// (Loop/Simulation+Outcomes.swift, +Attempts.swift); the edge through `GraphCall.cut` and
    /// `RetryDecision.cut(to:)` (Graph/GraphServer+Calls.swift).
    @Test("deadlines: clients.deadline at the clients, the same deadline propagated to an edge")
    func deadlines() {
        let server = Self.server(
            capacity: 20_000, workers: 1000, dropExpired: true, errors: .init(serverError: 0.3, serverErrorStatus: .unavailable))
        let policy = RetryPolicy(backoff: Backoff(kind: .constant, base: 20 * Self.ms, max: 20 * Self.ms), maxAttempts: 4)
        let clients = Self.fleet(timeout: 100 * Self.ms, deadline: 250 * Self.ms)
        let c = Self.compare(
            "5 deadlines",
            clients: Self.atClients(policy, server: server, clients: clients, horizon: 40),
            edge: Self.onEdge(policy, server: server, clients: clients, callTimeout: 100 * Self.ms, propagate: true, horizon: 40))
        let lost = c.lost
        let attempts = c.attempts(max: 4)
        Self.check([c.succeeded, lost, c.ttsMean(slack: 1e-5), c.p90.share, attempts, c.abandoned(max: 1), c.refused(max: 3)], c)
        #expect(lost.clients > 0.05 && lost.bound < 0.1 * lost.clients)
        // The drift this case guards against: an edge that ignores the deadline. Its users still
        // give up at 250 ms (their own attempt's deadline), but its call retries past it, for
        // nobody: S sees more attempts per operation. The same comparison without propagation
        // must fail on attempts at S (checked here, so the case is shown able to fail).
        let deaf = Self.compare(
            "5 deadlines, not propagated (must differ)",
            clients: Self.atClients(policy, server: server, clients: clients, horizon: 40),
            edge: Self.onEdge(policy, server: server, clients: clients, callTimeout: 100 * Self.ms, propagate: false, horizon: 40))
        let deafAttempts = deaf.attempts(max: 4)
        print("  [\(deaf.name)] \(deafAttempts)")
        #expect(!deafAttempts.holds)
    }

    // MARK: - 6. Plain backoff over 503s

    /// S: 1,000 workers at 50,000/s (20 ms exponential service) answering 30% of requests 503
    /// after processing (`server.errors.server_error: 0.3`, `status: 503`), independently. The
    /// policy: 4 attempts, exponential backoff from 20 ms (full jitter, at most 200 ms), 1 s per
    /// attempt. Closed forms at the clients: lost 0.3⁴ = 0.81%, attempts per operation
    /// (1 − 0.3⁴)/(1 − 0.3) = 1.417.
    @Test("plain backoff over 503s: the same retries and losses on an edge")
    func backoffOver503s() {
        let server = Self.server(capacity: 50_000, workers: 1000, errors: .init(serverError: 0.3, serverErrorStatus: .unavailable))
        let policy = RetryPolicy(
            backoff: Backoff(kind: .exponential, base: 20 * Self.ms, max: 200 * Self.ms, jitter: .full), maxAttempts: 4)
        let c = Self.compare(
            "6 backoff over 503s",
            clients: Self.atClients(policy, server: server, clients: Self.fleet(timeout: Self.s), horizon: 40),
            edge: Self.onEdge(policy, server: server, clients: Self.fleet(timeout: nil), callTimeout: Self.s, horizon: 40))
        let attempts = c.attempts(max: 4)
        let lost = c.lost
        Self.check([c.succeeded, lost, c.ttsMean(slack: 1e-5), c.p90.share, attempts, c.abandoned(max: 1), c.refused(max: 3)], c)
        // The closed forms hold at the clients (4 standard errors over 100,000 operations).
        #expect(abs(attempts.clients - (1 - pow(0.3, 4)) / 0.7) < 0.01)
        #expect(abs(lost.clients - pow(0.3, 4)) < 0.002)
        // One attempt fewer or more on the edge (3 or 5: lost 2.7% or 0.24%) is caught.
        #expect(lost.bound < 0.005 && attempts.bound < 0.02)
    }

    /// The same over 503s with a retry budget (Finagle's: 10% of requests plus 10 retries per
    /// second in reserve, ttl 10 s), so that retries are refused. One budget on both sides: a
    /// single client starting 1,000 operations per second (Poisson, 20 s) keeps one host state, as
    /// P's edge keeps one for all its calls (`CallGraphTests.sharedBudget` shows why a fleet of
    /// clients cannot stand for an edge's budget). About 0.3 × 1,000 = 300 retries wanted per
    /// second against about 110 allowed: most refused.
    ///
    /// The edge counts its refused retries as the clients count theirs (`Recorder.attemptRefused`,
    /// `retryRefusedByBudget`: one piece of code), into S's `retriesRefused`.
    @Test("plain backoff over 503s under one shared retry budget: the same refusals on an edge")
    func backoffUnderBudget() {
        let server = Self.server(capacity: 50_000, workers: 1000, errors: .init(serverError: 0.3, serverErrorStatus: .unavailable))
        var policy = RetryPolicy(
            backoff: Backoff(kind: .exponential, base: 20 * Self.ms, max: 200 * Self.ms, jitter: .full), maxAttempts: 4)
        policy.budget = .ratio(FinagleRetryBudget(ttl: 10 * Self.s, minRetriesPerSecond: 10, percentCanRetry: 0.1))
        let one = Scenario.Clients(count: 1, arrival: .poisson(ratePerClient: 1000, start: 0, until: 20 * Self.s), timeout: Self.s)
        let c = Self.compare(
            "6b backoff over 503s, one budget",
            clients: Self.atClients(policy, server: server, clients: one, horizon: 40),
            edge: Self.onEdge(policy, server: server, clients: one, callTimeout: Self.s, horizon: 40))
        let refused = c.refused(max: 3)
        Self.check([c.succeeded, c.lost, c.ttsMean(slack: 1e-5), c.p90.share, c.attempts(max: 4), c.abandoned(max: 1), refused], c)
        #expect(refused.clients > 0.05 && refused.bound < refused.clients / 4)
    }
}
