import Foundation
import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The queue model against M/M/1 theory: Poisson arrivals λ, exponential service μ, one FIFO
/// server, no retries, no timeouts. The time in system is exponential with rate μ − λ
/// (Kleinrock, Queueing Systems vol. 1, §3.2), so its mean is 1/(μ − λ) and its p99 is
/// ln(100)/(μ − λ).
@Suite(.timeLimit(.validation), .endsRunPastTimeLimit)
struct QueueingTheoryTests {
    static let mu = 1000.0

    func run(rho: Double, horizon: Double, seed: UInt64) -> Summary {
        let sc = Scenarios.make(
            clients: 1000, arrival: .poisson(ratePerClient: rho * Self.mu / 1000, start: 0, until: .max),
            timeout: nil, capacity: Self.mu, service: .exponential, policy: Scenarios.noRetries,
            horizon: horizon, bucket: 10, seed: seed)
        return Simulator.run(sc, replication: 0).summary
    }

    // Runs are long enough (1 to 13.5 million operations) that the errors seen over seeds 1–4 stay
    // under 0.7% for the mean and 1.4% for the p99 at each load — the relaxation time of M/M/1
    // grows like 1/(μ(1 − √ρ)²), so heavier loads run longer.
    @Test(
        "M/M/1: mean time in system within 3% of 1/(μ − λ), p99 within 5% of ln(100)/(μ − λ)",
        arguments: [(0.5, 2000.0), (0.8, 6000.0), (0.9, 15000.0)])
    func mm1(rho: Double, horizon: Double) {
        let s = run(rho: rho, horizon: horizon, seed: 2026)
        let rate = Self.mu * (1 - rho)
        let mean = 1 / rate
        let p99 = log(100) / rate
        #expect(abs(s.ttsSuccessMean / mean - 1) < 0.03, "mean \(s.ttsSuccessMean) vs \(mean)")
        #expect(abs(s.ttsSuccessP99 / p99 - 1) < 0.05, "p99 \(s.ttsSuccessP99) vs \(p99)")
        #expect(s.amplification == 1 && s.gaveUp == 0)
    }
}
