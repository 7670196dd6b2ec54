import Foundation
import RetryPolicy
import RetryStormEngine
import Testing

/// Hedged calls on a call graph's edge (issue 28): the latency of the first of two copies, the
/// tail it cuts, cancellation of queued copies, failures that send the next copy, and the budget
/// hedges spend. Expected values are closed forms or hand traces, derived in each comment.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct HedgingTests {
    typealias G = CallGraphTests

    /// A frontend of 1,000 workers whose own work takes 1 ms (no queueing), releasing its worker
    /// while it calls; its call to `backend` hedges with `hedging` (no timeout, no retry).
    static func run(
        backend: Scenario.Server, hedging: Hedging?, clients: Int, arrival: Scenario.Arrival, budget: RetryBudget = .unlimited,
        classifier: Classifier = .offlineFirst, timeout: Double? = nil, horizon: Double = 400
    ) -> ReplicationResult {
        var call = G.call(1, attempts: 1, timeout: timeout, classifier: classifier)
        call.policy.hedging = hedging
        call.policy.budget = budget
        return G.run(
            G.graph(
                [
                    .init(name: "frontend", server: G.server(capacity: 1_000_000, workers: 1000), releaseWhileCalling: true, calls: [call]),
                    .init(name: "backend", server: backend)
                ],
                clients: clients, arrival: arrival, timeout: nil, policy: Scenarios.noRetries, horizon: horizon))
    }

    static let ms = 1_000_000 as Int64

    /// A heavy tail: Pareto service times, shape α = 2, mean 100 ms, so x_m = 50 ms and
    /// P(X > t) = (x_m/t)^α: the p99 is x_m·100^(1/α) = 0.5 s. Hedging at the p90, d = x_m·10^(1/α)
    /// = 158.1 ms: above d, P(T > t) = (x_m/t)^α·(x_m/(t − d))^α, which is 0.01 where
    /// t(t − d) = x_m²·100^(1/α): t = 0.25583 s. The tail halves for 10% more requests. With
    /// n = 200,000 calls the sample p99's standard error is √(0.0099/n)/f(t): f = 0.04/s
    /// unhedged (1.1% of 0.5 s), f = S(t)·(2/t + 2/(t − d)) = 0.283/s hedged (0.3%); the bounds
    /// are 4 of them.
    @Test("hedging at the p90 of a Pareto service halves its p99: 0.5 s → 0.256 s")
    func paretoTail() {
        let backend = G.server(capacity: 10_000, workers: 1000, service: .pareto(shape: 2))
        let arrival = Scenario.Arrival.poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(200))
        let d = Int64((0.05 * 10.0.squareRoot() * 1e9).rounded())
        let hedged = Self.run(backend: backend, hedging: Hedging(delay: .fixed(d), maxAttempts: 2), clients: 100_000, arrival: arrival)
        let plain = Self.run(backend: backend, hedging: nil, clients: 100_000, arrival: arrival)
        #expect(abs(plain.summary.ttsSuccessP99 / (0.001 + 0.5) - 1) < 0.045)
        #expect(abs(hedged.summary.ttsSuccessP99 / (0.001 + 0.25583) - 1) < 0.013)
        // P(X₁ > d) = 0.1 of calls send a second copy.
        let ops = Double(hedged.summary.operations)
        let extra = Double(hedged.services[1].total(.offered)) - ops
        #expect(abs(extra - 0.1 * ops) <= 4 * (ops * 0.09).squareRoot())
    }

    /// A queued copy leaves the queue when another copy succeeds. Two calls at t = 0 to a
    /// backend of one worker taking 100 ms; each sends a second copy 10 ms later. The queue
    /// (FIFO) is B₁, A₂, B₂ behind A₁. A₁ ends at 0.1 s: the worker takes B₁ as it frees, and
    /// A₁'s answer cancels A₂, which leaves the queue unserved. B₁ ends at 0.2 s: the worker
    /// takes B₂ at that instant, before B₁'s answer can cancel it (the answer and the cancel
    /// travel after the work ends), so B₂ runs to 0.3 s as wasted work. Served 3 of 4 offered,
    /// 1 wasted; the operations end at 0.101 s and 0.201 s.
    @Test("a queued copy leaves the queue when a sibling succeeds")
    func cancelQueued() {
        let backend = G.server(capacity: 10, workers: 1)
        let r = Self.run(backend: backend, hedging: Hedging(delay: .fixed(10 * Self.ms), maxAttempts: 2), clients: 2, arrival: .burst(at: 0))
        #expect(r.summary.succeeded == 2)
        #expect(r.services[1].total(.offered) == 4 && r.services[1].total(.served) == 3 && r.services[1].total(.wasted) == 1)
        #expect(abs(r.ttsQuantiles[0] - 0.101) < 1e-9 && abs(r.ttsQuantiles[1000] - 0.201) < 1e-9)
    }

    /// No delay: every copy at once (gRPC's default `hedgingDelay` of 0). Ten calls, 3 copies
    /// each, on a backend taking exactly 100 ms with no queueing: 30 requests, all served, the
    /// 2 losers of each call wasted, every operation done at 0.101 s. With one retry in the
    /// budget for the run, one extra copy goes out in the whole run (11 requests): a refused
    /// copy with no delay is not asked again at the same instant.
    @Test("a zero delay sends every copy at once; a budget refusal then sends no more")
    func zeroDelay() {
        let backend = G.server(capacity: 10_000, workers: 1000)
        let hedging = Hedging(delay: .fixed(0), maxAttempts: 3)
        let r = Self.run(backend: backend, hedging: hedging, clients: 10, arrival: .burst(at: 0))
        #expect(r.summary.succeeded == 10 && abs(r.ttsQuantiles[1000] - 0.101) < 1e-9)
        #expect(r.services[1].total(.offered) == 30 && r.services[1].total(.served) == 30 && r.services[1].total(.wasted) == 20)
        let capped = Self.run(backend: backend, hedging: hedging, clients: 10, arrival: .burst(at: 0), budget: .perRun(retries: 1))
        #expect(capped.summary.succeeded == 10 && capped.services[1].total(.offered) == 11)
    }

    /// Hedges spend the retry budget: with 10 retries for the whole run on the edge
    /// (`perRun(10)`) and every call slow enough to hedge (deterministic 100 ms, delay 10 ms),
    /// exactly 10 copies beyond the first go out, however many calls there are.
    @Test("each hedge spends the retry budget as a retry")
    func budgetLimitsHedges() {
        let backend = G.server(capacity: 10_000, workers: 1000)
        let r = Self.run(
            backend: backend, hedging: Hedging(delay: .fixed(10 * Self.ms), maxAttempts: 3), clients: 100, arrival: .burst(at: 0),
            budget: .perRun(retries: 10))
        #expect(r.summary.succeeded == 100)
        #expect(r.services[1].total(.offered) == 110 && r.services[1].total(.retries) == 10)
        #expect(r.services[1].total(.budgetDenied) > 0)
    }
}

extension HedgingTests {
    /// A percentile delay finds its own fixed point. Two copies, exponential service (μ = 10/s,
    /// no queueing), the delay the p90 of the latencies the window records (Finagle's rule: the
    /// winner's latency, and the superseded copy's time out). With delay d and x = e^(−μd): the
    /// first copy records min(X₁, d + X₂), the second (sent with probability x) records
    /// min(X₂, X₁ − d) ~ Exp(2μ), so the recorded values' CDF at d is
    /// [1 − x + x(1 − x²)]/(1 + x) = (1 − x³)/(1 + x). The p90 is d where that is 0.9:
    /// x³ + 0.9x − 0.1 = 0, x = 0.109737, d = 0.22097 s (the service's own p90 would be 0.2303 s),
    /// and a share x of calls hedge. Bounds: the window's bins (±3.2% of d, ±7% of x) and the
    /// window's sampling (30 s at 100 calls per second: ±3% of x), plus 4 binomial SDs.
    @Test("a p90 delay hedges the share of calls its fixed point gives: x³ + 0.9x − 0.1 = 0")
    func percentileFixedPoint() {
        let backend = G.server(capacity: 10_000, workers: 1000, service: .exponential)
        let arrival = Scenario.Arrival.poisson(ratePerClient: 0.01, start: 0, until: Scenarios.ns(300))
        let hedging = Hedging(delay: .percentile(0.9, window: 30_000_000_000), maxAttempts: 2)
        let r = Self.run(backend: backend, hedging: hedging, clients: 10_000, arrival: arrival)
        let ops = Double(r.summary.operations)
        let x = 0.109737
        let extra = Double(r.services[1].total(.offered)) - ops
        #expect(abs(extra / ops - x) <= 0.10 * x + 4 * (x * (1 - x) / ops).squareRoot())
        #expect(r.summary.succeeded == r.summary.operations)
    }
}
