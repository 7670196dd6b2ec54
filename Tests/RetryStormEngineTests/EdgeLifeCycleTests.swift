import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// A call on an edge lives the life of a client's operation (issue 39): the same policy gives the
/// same outcomes. These are the exact laws of the pieces an edge lacked before — status queries,
/// duplicates, refused retries — each derived in its test's comment; the clients' side of each
/// is the one-hop engine's, checked by its own suites.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct EdgeLifeCycleTests {
    /// Clients that make one attempt and wait up to 100 s, through a pass-through proxy (a million
    /// requests per second, a thousand workers) whose one call to `backend` carries `policy`
    /// with a 100 ms timeout.
    static func proxied(_ backend: Scenario.Server, policy: RetryPolicy, clients: Int = 400) -> Scenario {
        let proxy = CallGraphTests.server(capacity: 1_000_000, workers: 1000)
        let call = Scenario.Call(
            to: 1, count: 1, parallel: false, timeout: Scenarios.ns(0.1), policy: policy, failureStatus: 503, propagateDeadline: false)
        return CallGraphTests.graph(
            [.init(name: "proxy", server: proxy, calls: [call]), .init(name: "backend", server: backend)],
            clients: clients, arrival: .burst(at: 0), policy: Scenarios.noRetries)
    }

    /// A backend that serves 100,000 requests per second over 100 workers, exponentially, and
    /// applies every write, losing the answer of a share `ambiguous` of them.
    static func losing(_ ambiguous: Double) -> Scenario.Server {
        CallGraphTests.server(capacity: 100_000, workers: 100, service: .exponential, errors: .init(ambiguous: ambiguous))
    }

    /// 4 attempts 10 ms apart, idempotency keys, and a status query after an ambiguous failure.
    static func reconciling(idempotency: Idempotency = .key, reconcile: Bool = true) -> RetryPolicy {
        var p = Scenarios.constantBackoff(0.01, attempts: 4)
        p.ambiguity = AmbiguityPolicy(idempotency: idempotency, reconcile: reconcile)
        return p
    }

    /// Every write is applied, 20% of the answers lost. With reconciliation, a lost answer's
    /// attempt times out (100 ms; a mean service of 1 ms over 100 workers never
    /// comes near it: 400 requests drain in about 4 ms), the call asks, the backend (which answers queries without loss) says
    /// applied, and the call is confirmed. So no call fails, every timed-out attempt is followed by
    /// exactly one query and one confirmation, and nothing is retried: timed out = queries =
    /// confirmed, retries = 0, succeeded + confirmed = calls = operations. The confirmed share is
    /// Binomial(400, 0.2): 80 ± 8, so 40…120 is five standard deviations each side. Before the
    /// edges reconciled, those 20% were lost (the call failed at once, ambiguous).
    @Test("an edge reconciles an ambiguous write as a client does: asked, confirmed applied, nothing lost")
    func reconcileOnAnEdge() throws {
        let r = CallGraphTests.run(Self.proxied(Self.losing(0.2), policy: Self.reconciling()))
        let backend = r.services[1]
        #expect(r.summary.operations == 400 && r.summary.succeeded == 400 && r.summary.gaveUp == 0 && r.summary.blocked == 0)
        let confirmed = backend.total(.confirmed)
        #expect((40...120).contains(confirmed))
        #expect(backend.total(.timedOut) == confirmed && backend.total(.queries) == confirmed)
        #expect(backend.total(.succeeded) + confirmed == 400 && backend.total(.operations) == 400)
        #expect(backend.total(.retries) == 0 && backend.total(.gaveUp) == 0)
        // The queries are requests the backend serves: attempts plus queries.
        #expect(backend.total(.offered) == 400 + confirmed)
    }

    /// The same server and policy without reconciliation but with idempotency keys: each
    /// ambiguous attempt is retried with its key (no duplicate), so the calls that fail are those
    /// whose 4 attempts all lost their answers, about 400 × 0.2⁴ = 0.64: at most 5. Without keys
    /// (`idempotency: none`) every retry writes again: each retry follows a lost answer of a write
    /// already applied, so duplicates = retries exactly.
    @Test("without a key every retry of an applied write is a duplicate at the backend; with one, none")
    func duplicatesOnAnEdge() {
        let keyed = CallGraphTests.run(Self.proxied(Self.losing(0.2), policy: Self.reconciling(reconcile: false)))
        #expect(keyed.services[1].total(.duplicates) == 0 && keyed.services[1].total(.retries) > 40)
        #expect(keyed.summary.gaveUp <= 5)
        let unkeyed = CallGraphTests.run(Self.proxied(Self.losing(0.2), policy: Self.reconciling(idempotency: .none, reconcile: false)))
        let backend = unkeyed.services[1]
        #expect(backend.total(.retries) > 40 && backend.total(.duplicates) == backend.total(.retries))
    }

    /// A backend that answers every request 500 and an edge policy of 2 attempts under a budget
    /// of 5 retries for the run (``RetryBudget/perRun(retries:)``, one budget for the calling
    /// service): each of the 400 calls fails its first attempt and asks for one retry; the first 5
    /// get one, the other 395 are refused by the budget. So retries = 5, and the refused retries
    /// (``ServiceResult/retriesRefused``, no warmup) = budget denied = 395, as the clients count
    /// theirs; every call gives up.
    @Test("retries an edge's budget refuses are counted as refused retries, as at the clients")
    func refusedRetriesOnAnEdge() {
        var policy = Scenarios.constantBackoff(0.01, attempts: 2)
        policy.budget = .perRun(retries: 5)
        let failing = CallGraphTests.server(capacity: 10_000, workers: 100, errors: .init(serverError: 1))
        let r = CallGraphTests.run(Self.proxied(failing, policy: policy))
        let backend = r.services[1]
        #expect(backend.total(.retries) == 5)
        #expect(backend.retriesRefused == 395 && backend.total(.budgetDenied) == 395)
        #expect(backend.total(.gaveUp) == 400 && r.summary.gaveUp == 400)
    }
}
