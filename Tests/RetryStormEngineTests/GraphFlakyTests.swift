import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// Flaky leaves of a call graph (`server.model: flaky` on a service that makes no calls): no
/// capacity limit, each request failing (500) independently with probability f and answered after
/// its latency. The expected values are closed forms (truncated geometrics, Wald's identity) or
/// hand traces, derived in each test's comment; random counts are checked within 4 standard errors.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct GraphFlakyTests {
    /// A flaky server failing `failure` of its requests, each answered after `latency` seconds.
    static func flaky(_ failure: Double, latency: Double, rateLimit: Scenario.RateLimit? = nil) -> Scenario.Server {
        .init(
            capacity: 1000, profile: .constant, model: .flaky(.init(failure: failure, latency: Scenarios.ns(latency))),
            rateLimit: rateLimit)
    }

    /// A frontend of ample capacity (1,000 workers, 1 ms each) whose requests call `leaf` once,
    /// with `callAttempts` attempts 10 ms apart.
    static func frontToLeaf(_ leaf: Scenario.Server, callAttempts: Int) -> [Scenario.Service] {
        [
            .init(
                name: "frontend", server: CallGraphTests.server(capacity: 1_000_000, workers: 1000),
                calls: [CallGraphTests.call(1, attempts: callAttempts)]),
            .init(name: "leaf", server: leaf)
        ]
    }

    /// Mean and variance of a count of attempts N that stops at the first success or after `m`
    /// attempts, each failing with probability `p`: P(N ≥ i) = p^(i−1), so E[N] = Σ P(N ≥ i) =
    /// (1 − p^m)/(1 − p) and E[N²] = Σ (2i − 1) P(N ≥ i) (i = 1…m).
    static func truncatedGeometric(_ p: Double, _ m: Int) -> (mean: Double, variance: Double) {
        let mean = (1 - pow(p, Double(m))) / (1 - p)
        let second = (1...m).reduce(0.0) { $0 + Double(2 * $1 - 1) * pow(p, Double($1 - 1)) }
        return (mean, second - mean * mean)
    }

    /// One layer: f = 0.5 at the leaf, the frontend's call makes up to k + 1 = 4 attempts (3
    /// retries, 10 ms apart, far inside the 100 s timeout), the clients none. The leaf's requests
    /// per call are the truncated geometric N with p = f, m = k + 1: E[N] = 1 + f + f² + f³ =
    /// (1 − f⁴)/(1 − f) = 1.875; a call fails (and its operation gives up, the frontend answering
    /// 503) with probability f⁴ = 0.0625 (binomial). About 20,000 operations: both within 4
    /// standard errors. Every request is served (no capacity limit, no queue) and none is wasted.
    @Test("requests at a flaky leaf per call: (1 − f^(k+1))/(1 − f); the call fails with f^(k+1)")
    func oneLayer() {
        let (f, k) = (0.5, 3)
        let r = CallGraphTests.run(
            CallGraphTests.graph(
                Self.frontToLeaf(Self.flaky(f, latency: 0.01), callAttempts: k + 1), clients: 20_000,
                arrival: .poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(100)), policy: Scenarios.noRetries, horizon: 200))
        let n = Double(r.summary.operations)
        #expect(n > 19_000 && r.summary.succeeded + r.summary.gaveUp == r.summary.operations)
        let leaf = r.services[1]
        #expect(leaf.total(.operations) == r.summary.operations)
        let (mean, variance) = Self.truncatedGeometric(f, k + 1)
        let requests = Double(leaf.total(.offered))
        #expect(abs(requests - n * mean) <= 4 * (n * variance).squareRoot(), "\(requests) requests for \(n) calls")
        let fails = pow(f, Double(k + 1))
        #expect(abs(Double(r.summary.gaveUp) - n * fails) <= 4 * (n * fails * (1 - fails)).squareRoot())
        // The call gave up exactly when its operation did; each attempt was answered 200 or 500.
        #expect(leaf.total(.gaveUp) == r.summary.gaveUp)
        #expect(leaf.total(.served) == leaf.total(.offered) && leaf.total(.wasted) == 0 && leaf.total(.timedOut) == 0)
        #expect(leaf.total(.succeeded) + leaf.total(.failed) == leaf.total(.offered))
        #expect(leaf.total(.succeeded) == r.summary.succeeded)
        #expect(leaf.total(.firstAttempts) + leaf.total(.retries) == leaf.total(.offered))
        #expect(leaf.queueAtEnd.allSatisfy { $0 == 0 })
    }

    /// Two layers: the clients make up to j + 1 = 3 attempts at service A, A's call to the flaky
    /// leaf B (f = 0.5) up to k + 1 = 2. A request at A fails (503) iff its call failed, with
    /// probability q = f^(k+1) = 0.25, independently of the client's other attempts; so an
    /// operation fails with q^(j+1) = 1/64, and makes T client attempts, a truncated geometric
    /// (p = q, m = j + 1): E[T] = (1 − q^(j+1))/(1 − q) = 1.3125 requests at A. Each attempt makes
    /// one call, whose requests at B, N, are independent of the calls before it, and whether
    /// attempt t happens depends only on those: by Wald's identity the requests at B per operation
    /// are E[T]·E[N] = 1.3125 × (1 − f^(k+1))/(1 − f) = 1.3125 × 1.5 = 1.96875. Their variance
    /// is summed over the operation's outcomes (at most (j + 1)(k + 1) = 6 requests at B). About
    /// 20,000 operations: every count within 4 standard errors.
    @Test("two layers: the operation fails with (f^(k+1))^(j+1); B's requests per operation E[T]·E[N] (Wald)")
    func twoLayers() {
        let (f, k, j) = (0.5, 1, 2)
        let r = CallGraphTests.run(
            CallGraphTests.graph(
                Self.frontToLeaf(Self.flaky(f, latency: 0.01), callAttempts: k + 1), clients: 20_000,
                arrival: .poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(100)),
                policy: Scenarios.constantBackoff(0.01, attempts: j + 1), horizon: 200))
        let n = Double(r.summary.operations)
        #expect(n > 19_000)
        let q = pow(f, Double(k + 1))
        let fails = pow(q, Double(j + 1))
        #expect(abs(Double(r.summary.gaveUp) - n * fails) <= 4 * (n * fails * (1 - fails)).squareRoot())
        let t = Self.truncatedGeometric(q, j + 1)
        #expect(r.services[0].total(.offered) == r.summary.attempts)
        #expect(abs(Double(r.summary.attempts) - n * t.mean) <= 4 * (n * t.variance).squareRoot())

        // The requests at B per operation, S, over its outcomes: attempt t (reached with
        // probability q^(t−1), after t − 1 calls of k + 1 failed requests each) succeeds at its
        // i-th request with probability f^(i−1)(1 − f), or fails after k + 1.
        var (m1, m2) = (0.0, 0.0)
        for attempt in 1...(j + 1) {
            let reach = pow(q, Double(attempt - 1))
            let before = Double((attempt - 1) * (k + 1))
            for i in 1...(k + 1) {
                let p = reach * pow(f, Double(i - 1)) * (1 - f)
                m1 += p * (before + Double(i))
                m2 += p * (before + Double(i)) * (before + Double(i))
            }
            if attempt == j + 1 {
                let s = Double((j + 1) * (k + 1))
                m1 += reach * q * s
                m2 += reach * q * s * s
            }
        }
        let wald = t.mean * (1 - q) / (1 - f)
        #expect(abs(m1 - wald) < 1e-12 && abs(wald - 1.96875) < 1e-12)
        let b = Double(r.services[1].total(.offered))
        #expect(abs(b - n * wald) <= 4 * (n * (m2 - m1 * m1)).squareRoot(), "\(b) requests at B for \(n) operations")
        #expect(r.services[1].total(.operations) == r.summary.attempts)
    }

    /// The leaf's latency: 10 clients at t = 0 on a frontend of one worker taking 10 ms
    /// (deterministic), each calling a leaf that never fails and answers after L. The leaf has
    /// no capacity limit, so every call takes exactly L. Holding its worker through the call,
    /// request i (i = 1…10) ends at i × (10 ms + L); releasing it, at i × 10 ms + L. With L = 0
    /// the leaf answers as the request arrives: i × 10 ms either way.
    @Test("a flaky leaf answers after its latency, whatever it has in hand", arguments: [0.25, 0.0])
    func latency(_ l: Double) {
        func times(release: Bool) -> [Double] {
            let r = CallGraphTests.run(
                CallGraphTests.graph(
                    [
                        .init(
                            name: "frontend", server: CallGraphTests.server(capacity: 100, workers: 1), releaseWhileCalling: release,
                            calls: [CallGraphTests.call(1, attempts: 1)]),
                        .init(name: "leaf", server: Self.flaky(0, latency: l))
                    ], clients: 10, arrival: .burst(at: 0), policy: Scenarios.noRetries, horizon: 60))
            #expect(r.summary.succeeded == 10 && r.services[1].total(.served) == 10)
            return [r.ttsQuantiles[0], r.ttsQuantiles[1000]]
        }
        let held = times(release: false)
        #expect(abs(held[0] - (0.01 + l)) < 1e-9 && abs(held[1] - 10 * (0.01 + l)) < 1e-9, "\(held)")
        let released = times(release: true)
        #expect(abs(released[0] - (0.01 + l)) < 1e-9 && abs(released[1] - (0.1 + l)) < 1e-9, "\(released)")
    }

    /// The door stands in front of a flaky leaf as in front of any model: 100 clients at t = 0,
    /// the frontend (1,000 workers, 1 ms) calls the leaf once each at t = 1 ms, no retry; the
    /// leaf's token bucket holds one token and refills at 1/s, so the first call passes and the
    /// other 99 are refused 429 (rejected at the leaf, never served), their requests answer 503
    /// and their operations give up: 1 success.
    @Test("a flaky leaf's rate limiter refuses what its bucket does not hold")
    func rateLimited() {
        let r = CallGraphTests.run(
            CallGraphTests.graph(
                Self.frontToLeaf(Self.flaky(0, latency: 0.05, rateLimit: .init(rate: 1, burst: 1, retryAfter: nil)), callAttempts: 1),
                clients: 100, arrival: .burst(at: 0), policy: Scenarios.noRetries, horizon: 60))
        let leaf = r.services[1]
        #expect(r.summary.succeeded == 1 && r.summary.gaveUp == 99)
        #expect(leaf.total(.offered) == 100 && leaf.total(.served) == 1 && leaf.total(.rejected) == 99 && leaf.total(.succeeded) == 1)
    }

    /// Hedged calls to a flaky leaf that never fails and answers after 100 ms, a second copy
    /// 30 ms after the first: ten calls at t = 1 ms (after the frontend's own work). The leaf has
    /// no queue to take a copy back from: each first copy answers at 101 ms and wins, each second
    /// (sent at 31 ms) is served at 131 ms as wasted work. 20 requests served, 10 wasted, every
    /// operation done at 0.101 s, and the run ends with the leaf's last answer, at 0.131 s.
    @Test("a hedged call's losing copy at a flaky leaf is served as wasted work")
    func hedged() {
        let r = HedgingTests.run(
            backend: Self.flaky(0, latency: 0.1), hedging: Hedging(delay: .fixed(30 * HedgingTests.ms), maxAttempts: 2), clients: 10,
            arrival: .burst(at: 0))
        let leaf = r.services[1]
        #expect(r.summary.succeeded == 10 && abs(r.ttsQuantiles[0] - 0.101) < 1e-9 && abs(r.ttsQuantiles[1000] - 0.101) < 1e-9)
        #expect(leaf.total(.offered) == 20 && leaf.total(.served) == 20 && leaf.total(.wasted) == 10 && leaf.total(.retries) == 10)
        #expect(abs(r.summary.simEndSeconds - 0.131) < 1e-9)
    }

    /// A flaky leaf between two queue services in the scenario's list: the graph numbers its
    /// queues first, and the results come back in the scenario's order. The frontend calls the
    /// leaf (never failing) and then the backend, once each per request: each service sees one
    /// request per operation, and the runs with the same seed are the same.
    @Test("a flaky leaf listed before a queue service: results in the scenario's order")
    func order() {
        let sc = CallGraphTests.graph(
            [
                .init(
                    name: "frontend", server: CallGraphTests.server(capacity: 1_000_000, workers: 1000),
                    calls: [CallGraphTests.call(1, attempts: 1), CallGraphTests.call(2, attempts: 1)]),
                .init(name: "leaf", server: Self.flaky(0, latency: 0.02)),
                .init(name: "backend", server: CallGraphTests.server(capacity: 1_000_000, workers: 1000))
            ], clients: 500, arrival: .poisson(ratePerClient: 0.1, start: 0, until: Scenarios.ns(10)), policy: Scenarios.noRetries,
            horizon: 20)
        let r = CallGraphTests.run(sc)
        #expect(r.services.map(\.name) == ["frontend", "leaf", "backend"])
        #expect(r.summary.succeeded == r.summary.operations && r.summary.operations > 400)
        #expect(r.services.map { $0.total(.offered) } == Array(repeating: r.summary.operations, count: 3))
        // The leaf answers after 20 ms, the backend after 1 ms: the clients wait 1 + 20 + 1 ms.
        #expect(abs(r.ttsQuantiles[1000] - 0.022) < 1e-9)
        let again = CallGraphTests.run(sc)
        #expect(again.summary.events == r.summary.events && again.services.map(\.counts) == r.services.map(\.counts))
    }
}
