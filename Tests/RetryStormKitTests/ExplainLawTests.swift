import Foundation
import RetryStormKit
import Testing

/// The laws behind `explain` against closed forms derived by hand (docs/models.md, "Explain:
/// the laws"), and where they say they do not hold.
@Suite("Explain's laws")
struct ExplainLawTests {
    @Test("the critical backlog is capacity × timeout, or the root of c·n² + (W/μ)·n − W·τ with congestion")
    func criticalBacklog() {
        #expect(ServerLaw(capacity: 1000, workers: 1, congestion: 0, room: .infinity).criticalBacklog(timeout: 1) == 1000)
        #expect(ServerLaw(capacity: 250, workers: 4, congestion: 0, room: .infinity).criticalBacklog(timeout: 0.2) == 50)
        // At n* the server takes exactly the timeout to serve the n* requests: n* / S(n*) = τ.
        for (workers, c) in [(1, 2e-7), (4, 1e-4), (16, 1e-3)] {
            let law = ServerLaw(capacity: 1000, workers: workers, congestion: c, room: .infinity)
            let n = law.criticalBacklog(timeout: 1)
            #expect(abs(n / law.rate(n) - 1) < 1e-9, "W = \(workers), c = \(c): n* = \(n)")
        }
        // metastable.yaml: (−10⁻³ + √(10⁻⁶ + 8·10⁻⁷)) / (4·10⁻⁷) = 854.10 requests.
        let m = ServerLaw(capacity: 1000, workers: 1, congestion: 2e-7, room: 2001).criticalBacklog(timeout: 1)
        #expect(abs(m - 854.1020) < 1e-3)
    }

    @Test("one attempt, no congestion: the collapse law is the M/M/1 chain's first passage from 0 to μτ")
    func collapseMM1() throws {
        // E[T(0→N)] = (r(r^N − 1)/(r − 1) − N) / (λ(r − 1)), r = μ/λ (sum of E_j = (1 + r + … + r^j)/λ).
        for (load, capacity, timeout) in [(50.0, 100.0, 0.1), (30.0, 100.0, 0.2), (80.0, 100.0, 0.5), (5.0, 10.0, 3)] {
            let law = ServerLaw(capacity: capacity, workers: 1, congestion: 0, room: .infinity)
            let n = (capacity * timeout).rounded(.up)
            let r = capacity / load
            let exact = (r * (pow(r, n) - 1) / (r - 1) - n) / (load * (r - 1))
            let t = try #require(CollapseLaw.meanTime(server: law, load: load, timeout: timeout, attempts: 1))
            #expect(abs(t / exact - 1) < 1e-9, "λ = \(load), μ = \(capacity), τ = \(timeout): \(t) against \(exact)")
        }
        // 50/s against 100/s, n* = 10: (2·1023 − 10)/50 = 40.72 s.
        let t = CollapseLaw.meanTime(
            server: ServerLaw(capacity: 100, workers: 1, congestion: 0, room: .infinity), load: 50, timeout: 0.1, attempts: 1)
        #expect(abs((t ?? 0) - 40.72) < 1e-9)
        // Retries only add arrivals below n*: sooner, never later.
        let retried = try #require(
            CollapseLaw.meanTime(server: ServerLaw(capacity: 100, workers: 1, congestion: 0, room: .infinity), load: 50, timeout: 0.1, attempts: 5))
        #expect(retried < 40.72)
        // A thousand requests at 20%: past 10^308 s, +∞ (said as such rather than as a number).
        let far = ServerLaw(capacity: 1000, workers: 1, congestion: 0, room: .infinity)
        #expect(CollapseLaw.meanTime(server: far, load: 200, timeout: 1, attempts: 1) == .infinity)
        // n* over a million requests is not computed.
        let huge = ServerLaw(capacity: 2e6, workers: 1, congestion: 0, room: .infinity)
        #expect(CollapseLaw.meanTime(server: huge, load: 1e6, timeout: 1, attempts: 1) == nil)
    }

    @Test("budgets drain at their closed forms: gRPC at ratio/(1 + ratio) for any attempts, AWS at the cubic's root, Finagle at R(f) = p")
    func budgets() throws {
        func rate(_ b: RetryBudget, attempts: Int, owners: Double = 1, load: Double = 10, timeout: Double = 1) -> Double? {
            BudgetLaw(budget: b, attempts: attempts, owners: owners, load: load, timeout: timeout).drainFailureRate
        }
        // gRPC: f + … + f^k = ratio·(1 − f^k) ⇔ f = ratio·(1 − f): 1/11 at the A6 example's 0.1.
        for k in [2, 3, 5, 10] {
            #expect(abs((rate(.grpc(.a6Example), attempts: k) ?? 0) - 1.0 / 11) < 1e-8)
        }
        // AWS standard, 3 attempts, timeouts cost 10: 10(f + f²) − (1 − f) − 10(f − f³) = 0,
        // i.e. 10f³ + 10f² + f − 1 = 0, root 0.2459962 (numpy.roots).
        #expect(abs((rate(.aws(.standard), attempts: 3) ?? 0) - 0.2459962) < 1e-6)
        // One attempt: no retries, nothing to drain.
        #expect(rate(.aws(.standard), attempts: 1) == nil)
        // The SRE book's 10%: f = 0.1 with 2 attempts; f + f² = 0.1 with 3, (√1.4 − 1)/2.
        #expect(abs((rate(.ratio(.sreBook), attempts: 2) ?? 0) - 0.1) < 1e-8)
        #expect(abs((rate(.ratio(.sreBook), attempts: 3) ?? 0) - (1.4.squareRoot() - 1) / 2) < 1e-8)
        // Finagle's 10 retries a second per client cover a client sending 0.035/s however it fails.
        #expect(rate(.ratio(.finagleDefault), attempts: 3, owners: 6000, load: 210) == nil)
        // A token bucket refilling 0.5/s for a client sending 2/s, 2 attempts: f = 0.5/2.
        #expect(abs((rate(.tokenBucket(TokenBucket(capacity: 10, refillPerSecond: 0.5)), attempts: 2, load: 2) ?? 0) - 0.25) < 1e-8)
        // Envoy's 20% of requests in flight, one proxy at 1,000/s: R/(1 + R) = 0.2, f = 0.25 with 2 attempts.
        #expect(abs((rate(.envoy(.retryBudget), attempts: 2, load: 1000) ?? 0) - 0.25) < 1e-8)
        // A policy of a billion attempts (library presets that retry for good): the closed forms
        // answer at once, the same as for many attempts, gRPC's 1/11 whatever k.
        #expect(abs((rate(.grpc(.a6Example), attempts: 1_000_000_000) ?? 0) - 1.0 / 11) < 1e-8)
        // Per run: no rate.
        #expect(rate(.perRun(retries: 5), attempts: 3) == nil)
    }

    @Test("the fluid model drains an outage's backlog as the closed form says: (λD − μτ)/(μ − λ) + τ after it")
    func fluidDrain() {
        // One attempt, 50/s against 100/s, 1 s timeout, capacity 0 for 10 s: the backlog of 500
        // falls at 50/s; the last arrival to find more than μτ = 100 ahead comes 8 s after the
        // outage and times out 1 s later: 9 s.
        let law = ServerLaw(capacity: 100, workers: 1, congestion: 0, room: .infinity)
        let fluid = FluidModel(
            server: law, load: 50, timeout: 1, attempts: 1,
            capacity: .outage(at: 10_000_000_000, duration: 10_000_000_000, fraction: 0, recovery: .constant, ramp: 0), loadProfile: .flat)
        let run = fluid.run(until: 200, triggerEnd: 20, sustained: false)
        #expect(!run.stuck)
        #expect(abs((run.lastTimeout ?? 0) - 29) < 0.01, "last timeout at \(run.lastTimeout ?? -1) s")
    }

    /// A scenario from YAML, through the loader as the CLI reads it.
    static func scenario(_ yaml: String) throws -> Scenario { try Experiment(yaml: yaml).base }

    static let metastable = """
        name: m
        seed: 1
        horizon: 300s
        bucket: 1s
        clients: {count: 6000, arrival: poisson, rate: 0.035/s, timeout: 1s}
        server: {model: queue, capacity: 1000/s, congestion: 200ns, queue: {limit: 2000}, brownout: {at: 30s, duration: 5s, fraction: 0.1}}
        policy: {max_attempts: 5, backoff: {kind: none}}
        """

    @Test("where the laws do not hold, each says why rather than print a number")
    func limits() throws {
        let base = try Self.scenario(Self.metastable)
        let e = Explainer.explain(base)
        #expect(e.services.first?.reason == nil)
        #expect(e.services.first?.trigger?.tips == true)
        var s = base
        if case .queue(var q) = s.server.model {
            q.dropExpired = true
            s.server.model = .queue(q)
        }
        #expect(Explainer.explain(s).services.first?.reason?.contains("drop_expired") == true)
        #expect(Explainer.explain(s).services.first?.sustain == nil)
        s = base
        s.policy.backoff = Backoff(kind: .exponential, base: 2_000_000_000, max: 60_000_000_000, jitter: .full)
        let backoff = Explainer.explain(s).services[0]
        #expect(backoff.sustain != nil && backoff.trigger == nil && backoff.collapse == nil)
        #expect(backoff.triggerReason?.contains("backoff") == true)
        s = base
        s.policy.breaker = CircuitBreaker.offlineFirst
        #expect(Explainer.explain(s).services[0].reason == "a circuit breaker")
        // Many workers: the sustain and trigger laws hold; the collapse law needs one worker.
        s = base
        if case .queue(var q) = s.server.model {
            q.workers = 8
            s.server.model = .queue(q)
        }
        let workers = Explainer.explain(s).services[0]
        #expect(workers.sustain != nil && workers.trigger != nil && workers.collapse == nil)
        // A queue too short ever to hold n*: no retry-sustained state.
        s = base
        if case .queue(var q) = s.server.model {
            q.limit = 500
            s.server.model = .queue(q)
        }
        #expect(Explainer.explain(s).services[0].reason?.contains("critical backlog") == true)
        // A billion attempts count as 1,000 and are explained at once (a retry-forever preset).
        s = base
        s.policy.maxAttempts = 1_000_000_000
        let forever = Explainer.explain(s)
        #expect(forever.services[0].attempts == 1000)
        #expect(forever.services[0].trigger != nil && forever.services[0].sustain?.persists == true)
        // The baseline is unstable: said.
        s = base
        s.clients.arrival = .poisson(ratePerClient: 0.2, start: 0, until: .max)
        #expect(Explainer.explain(s).warnings.contains { $0.hasPrefix("the baseline is unstable") })
    }
}
