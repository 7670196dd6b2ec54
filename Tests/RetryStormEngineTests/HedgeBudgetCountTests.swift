import RetryPolicy
import RetryStormEngine
import Testing

/// Copies and budgets add up (issue 38, item 3): one refusal per copy the policy wanted, never
/// asked again at a later delay; a budget's refusal counted in `budget_denied` alone, never also
/// in `held_back`; copies wanted = sent + refused + not needed at the clients and on every edge.
/// Before the fix a refused copy was asked again one delay later until an answer came, so the
/// count grew as the delay shrank (3,093 operations wanting one copy each reported 14,697
/// refusals). Every run checks the conservation laws (`checkInvariants`).
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct HedgeBudgetCountTests {
    typealias F = FleetHedgingTests
    typealias G = CallGraphTests
    static let ms = 1_000_000 as Int64
    static let delays: [Int64] = [10, 50, 200]

    /// One client makes 20 operations one second apart, each answered after exactly 500 ms
    /// (deterministic service, 1,000 workers at 2,000/s: no queueing, no overlap), hedged with
    /// two copies at most, so each wants exactly one copy, `d` after its first (every delay
    /// here is under 500 ms). The client's budget pays for 5 retries in the whole run
    /// (`perRun(5)`): the first 5 operations send their copy (outrun by the first copy at
    /// 500 ms: abandoned), the other 15 are refused once each and still succeed with their first.
    /// So wanted 20 = sent 5 + refused 15 + not needed 0; budget_denied 15, held_back 0;
    /// retries_refused_fraction 15 / (5 + 15) = 0.75 whatever `d`.
    @Test("a copy the budget refuses is counted once, in budget_denied only, at any hedge delay", arguments: delays)
    func clientsCountOneRefusalPerCopy(delayMs: Int64) {
        let r = F.run(
            F.scenario(
                hedging: Hedging(delay: .fixed(delayMs * Self.ms), maxAttempts: 2), clients: 1,
                arrival: .constant(ratePerClient: 1, start: 0, until: Scenarios.ns(20)), capacity: 2000, workers: 1000,
                budget: .perRun(retries: 5), horizon: 30))
        let m = r.summary
        #expect(m.operations == 20 && m.succeeded == 20 && m.gaveUp == 0)
        #expect(F.total(r, .hedgesWanted) == 20 && F.total(r, .hedgesSent) == 5)
        #expect(F.total(r, .hedgesRefused) == 15 && F.total(r, .hedgesNotNeeded) == 0)
        #expect(m.retries == 5 && F.total(r, .offered) == 25 && F.total(r, .abandoned) == 5)
        #expect(m.budgetDenied == 15 && m.heldBack == 0 && m.retriesRefused == 15)
        #expect(m.retriesRefusedFraction == 0.75)
    }

    /// The same on a call graph's edge: 20 clients at t = 0, each operation one call from the
    /// frontend (1 ms of its own work) to a backend answering after exactly 500 ms (1,000
    /// workers at 2,000/s), hedged with two copies at most, so each call wants exactly one copy,
    /// at 1 ms + `d`. The edge's budget pays for 5 retries in the run: 5 copies sent, 15
    /// refused once each; every call succeeds with its first copy at 501 ms. At the backend:
    /// 25 requests, 5 of them retries; wanted 20 = sent 5 + refused 15 + not needed 0;
    /// budget_denied 15, held_back 0; and each refused copy is a refused retry, as at the clients
    /// (the hedge handlers are one code for both hosts): retries_refused 15.
    @Test("a copy an edge's budget refuses is counted once, in budget_denied only, at any hedge delay", arguments: delays)
    func edgeCountsOneRefusalPerCopy(delayMs: Int64) {
        let r = HedgingTests.run(
            backend: G.server(capacity: 2000, workers: 1000), hedging: Hedging(delay: .fixed(delayMs * Self.ms), maxAttempts: 2),
            clients: 20, arrival: .burst(at: 0), budget: .perRun(retries: 5), horizon: 30)
        let backend = r.services[1]
        #expect(r.summary.succeeded == 20 && backend.total(.gaveUp) == 0)
        #expect(backend.total(.hedgesWanted) == 20 && backend.total(.hedgesSent) == 5)
        #expect(backend.total(.hedgesRefused) == 15 && backend.total(.hedgesNotNeeded) == 0)
        #expect(backend.total(.offered) == 25 && backend.total(.retries) == 5)
        #expect(backend.total(.budgetDenied) == 15 && backend.total(.heldBack) == 0)
        #expect(backend.retriesRefused == 15)
    }

    /// Another guard's refusal is `held_back`, once per copy too. One client, 10 operations one
    /// second apart, each answered after exactly 500 ms, two copies at most, and a concurrency
    /// limit of one attempt in flight that refuses when full: at `d` the first copy holds the
    /// only slot, so each operation's one wanted copy is refused (concurrency limited) and
    /// succeeds with its first. Wanted 10 = refused 10; held_back 10, budget_denied 0,
    /// retries_refused 10, share 10 / (0 + 10) = 1 whatever `d` (before: asked again every `d`
    /// until the answer at 500 ms, so held_back grew as `d` shrank).
    @Test("a copy another guard refuses is counted once, in held_back only, at any hedge delay", arguments: delays)
    func clientsCountOneHeldBackPerCopy(delayMs: Int64) {
        var sc = F.scenario(
            hedging: Hedging(delay: .fixed(delayMs * Self.ms), maxAttempts: 2), clients: 1,
            arrival: .constant(ratePerClient: 1, start: 0, until: Scenarios.ns(10)), capacity: 2000, workers: 1000, horizon: 30)
        sc.policy.concurrency = ConcurrencyLimit(maxInFlight: 1, whenFull: .reject)
        let r = F.run(sc)
        let m = r.summary
        #expect(m.operations == 10 && m.succeeded == 10 && m.retries == 0)
        #expect(F.total(r, .hedgesWanted) == 10 && F.total(r, .hedgesRefused) == 10)
        #expect(m.heldBack == 10 && m.budgetDenied == 0 && m.retriesRefused == 10 && m.retriesRefusedFraction == 1)
    }

    /// A copy wanted at the deadline is not needed: 10 operations at t = 0, each request answered
    /// 500 after exactly 100 ms, three copies at most at a 10 s delay (which never comes), and a
    /// 150 ms deadline. Copy 0 fails at 100 ms and the policy wants copy 1 at once: sent, its
    /// timeout cut to the deadline. It times out at 150 ms and the policy wants copy 2: the
    /// deadline has passed, so it is not needed and the operation gives up. Per operation: wanted
    /// 2 = sent 1 + refused 0 + not needed 1; 2 requests, the second wasted (served to 200 ms).
    @Test("a copy wanted at the deadline is counted as not needed, and the operation gives up")
    func copyAtTheDeadlineIsNotNeeded() {
        var sc = F.scenario(
            hedging: Hedging(delay: .fixed(10_000 * Self.ms), maxAttempts: 3), clients: 10, arrival: .burst(at: 0), capacity: 10_000,
            workers: 1000, horizon: 5)
        sc.server.errors = .init(serverError: 1)
        sc.clients.deadline = 150 * Self.ms
        let r = F.run(sc)
        #expect(r.summary.operations == 10 && r.summary.gaveUp == 10)
        #expect(F.total(r, .hedgesWanted) == 20 && F.total(r, .hedgesSent) == 10)
        #expect(F.total(r, .hedgesRefused) == 0 && F.total(r, .hedgesNotNeeded) == 10)
        #expect(F.total(r, .offered) == 20 && F.total(r, .failed) == 10 && F.total(r, .timedOut) == 10 && F.total(r, .wasted) == 10)
    }

    /// A policy whose breaker fails an attempt it blocks (`whenOpen: .failAttempt`, one failure
    /// in a row opens it for 1,000 s) and whose budget pays for no retry (`perRun(0)`), against a
    /// server answering every request 500 after 100 ms. Ten operations one second apart: the
    /// first is sent, fails at 0.1 s and opens the breaker; its retry is refused by the budget.
    /// Each of the nine others meets the open breaker, which fails its attempt unsent; the policy
    /// wants a retry and the budget refuses it too (`admit` rejects, `budgetExhausted`). So 1
    /// attempt, 10 operations given up, 10 budget refusals, none of them held back.
    @Test("a budget refusal at admission is budget_denied only, never held_back")
    func clientsBudgetRefusalIsNotHeldBack() {
        var sc = Scenarios.make(
            clients: 1, arrival: .constant(ratePerClient: 1, start: 0, until: Scenarios.ns(10)), timeout: nil, capacity: 10_000,
            workers: 1000, policy: Self.breakerThenBudget, horizon: 30)
        sc.server.errors = .init(serverError: 1)
        let r = F.run(sc)
        let m = r.summary
        #expect(m.operations == 10 && m.attempts == 1 && m.gaveUp == 10)
        #expect(m.budgetDenied == 10 && m.heldBack == 0)
    }

    /// The same policy on a call graph's edge: 10 clients one second apart, one call each from
    /// the frontend to a backend answering every request 500 after 100 ms. The first call's
    /// attempt opens the edge's breaker and its retry is refused by the budget (`decide`); each
    /// later call is refused at admission. At the backend: 1 request, 10 calls given up,
    /// budget_denied 10, held_back 0 (before: the nine refusals at admission counted in both).
    @Test("a budget refusal of an edge's call at admission is budget_denied only, never held_back")
    func edgeBudgetRefusalIsNotHeldBack() {
        var call = G.call(1, attempts: 2, timeout: nil)
        call.policy = Self.breakerThenBudget
        let r = G.run(
            G.graph(
                [
                    .init(name: "frontend", server: G.server(capacity: 1_000_000, workers: 1000), releaseWhileCalling: true, calls: [call]),
                    .init(name: "backend", server: G.server(capacity: 10_000, workers: 1000, errors: .init(serverError: 1)))
                ],
                clients: 1, arrival: .constant(ratePerClient: 1, start: 0, until: Scenarios.ns(10)), timeout: nil,
                policy: Scenarios.noRetries, horizon: 30))
        let backend = r.services[1]
        #expect(backend.total(.offered) == 1 && backend.total(.gaveUp) == 10)
        #expect(backend.total(.budgetDenied) == 10 && backend.total(.heldBack) == 0)
    }

    /// Two attempts, constant 10 ms backoff; a breaker opened by one failure for 1,000 s that
    /// fails the attempts it blocks; a budget of no retries.
    static var breakerThenBudget: RetryPolicy {
        RetryPolicy(
            backoff: Backoff(kind: .constant, base: 10 * ms, max: 10 * ms), maxAttempts: 2, budget: .perRun(retries: 0),
            breaker: CircuitBreaker(
                window: .consecutive(1), failureRateThreshold: 1, openDuration: CircuitBreaker.fixed(1000 * Scenarios.s),
                whenOpen: .failAttempt))
    }
}
