import Foundation
import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// Load-triggered metastable failures against models nobody here derived: Brooker's
/// simple_collapse_sim, and a constant-rate fleet tipped by a 1 s pause.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct LoadSpikeModelTests {
    static let s: Int64 = 1_000_000_000

    // MARK: - Brooker's simple_collapse_sim

    /// Marc Brooker's simple_collapse_sim (github.com/mbrooker/simulator_example,
    /// simple_collapse_sim/sim.py), mapped onto the engine:
    /// - `network_delay = 0.1`, `random.expovariate(1/0.1)` each way: network.latency exponential, mean 100 ms;
    /// - `Server.start`: unlimited concurrency, service `1.0 + concurrency × 0.01` s with the new
    ///   request counted: a queue model whose workers never run out (100,000 of them at
    ///   100,000/s, so one unit of work is 1 s), deterministic service and `congestion` 10 ms,
    ///   which adds 10 ms per request in the system, itself included;
    /// - `max_request_t = 3.0`, `retries_left = 3`: a 3 s timeout and 3 attempts in all; timed-out
    ///   requests are still served (nothing drops them) and late answers ignored;
    /// - `Client.retry_wait` 0 (no backoff) or `ClientWithBackoffAndJitter`: U(0, 20) s before the
    ///   first retry and U(0, 40) s before the second, which is full jitter on 10 s · 2^k with the
    ///   exponent counted from 1 (`exponentOffset` 1);
    /// - `SpikeLoadGenerator(40, 80, 20, 5)` over `max_t = 80`: Poisson 40/s, 80/s for t ∈ [20, 25].
    static func brooker(backoff: Backoff, spike: Bool = true, horizon: Int64 = 80, seed: UInt64 = 1) -> Scenario {
        Scenario(
            name: "simple_collapse_sim", seed: seed, horizon: horizon * s, bucket: s,
            clients: .init(count: 1000, arrival: .poisson(ratePerClient: 0.04, start: 0, until: .max), timeout: 3 * s),
            server: .init(
                capacity: 100_000, profile: .constant,
                model: .queue(
                    .init(
                        workers: 100_000, service: .deterministic, limit: nil, dropExpired: false,
                        congestion: 10_000_000))),
            policy: RetryPolicy(backoff: backoff, maxAttempts: 3),
            network: .init(shape: .exponential, mean: 100_000_000),
            load: spike ? .spike(at: 20 * s, duration: 5 * s, multiplier: 2) : .flat)
    }

    static let noBackoff = Backoff.immediate
    static let backoffAndJitter = Backoff(kind: .exponential, base: 10 * s, max: 3600 * s, jitter: .full, exponentOffset: 1)

    /// Steady state at 40/s: by Little's law the mean concurrency is N = λ·E[S], and by PASTA a
    /// Poisson arrival sees N others, so E[S] = 1 + 0.01·(N + 1). Then N = 40.4 / 0.6 = 67.3,
    /// E[S] = 1.683 s (below the 3 s timeout), and the mean time to success adds the two network
    /// hops, 0.2 s: 1.883 s. Over seeds 1–3 the simulator gave 1.882, 1.884 and 1.894 s.
    @Test("simple_collapse_sim at a steady 40/s: mean time to success within 2% of Little's law's 1 + 0.01·(N + 1) + 0.2 = 1.883 s, no timeouts")
    func steadyState() {
        let r = Simulator.run(Self.brooker(backoff: Self.noBackoff, spike: false, horizon: 400), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let theory = 1 + 0.01 * (40.4 / 0.6 + 1) + 0.2
        #expect(abs(r.summary.ttsSuccessMean / theory - 1) < 0.02, "\(r.summary.ttsSuccessMean) vs \(theory)")
        // A timeout needs 2.8 s more than the mean; the network alone exceeds 1.3 s with
        // probability e^−13·14 ≈ 3e-5 per request.
        #expect(r.summary.timedOut <= 3)
    }

    /// During the spike at 80/s the fixed point N = 80·(1 + 0.01·N) is N = 400 and S = 5 s > 3 s:
    /// held long enough, every request would time out. In 5 s the concurrency climbs past the
    /// 180 where S + 0.2 s passes 3 s, so the spike's later requests time out. Once enough do,
    /// each operation sends 3 attempts: 120/s, and 120 × 0.01 ≥ 1 leaves N = 120·(1 + 0.01·N)
    /// no fixed point: the concurrency grows without bound, every attempt times out, and that
    /// keeps the offered load at 3 × 40/s after the spike is over. The collapsed state and the
    /// healthy one both persist (metastability), so a spike this size tips the system only
    /// most of the time: over these 20 replications no backoff stayed collapsed in 17 and backoff
    /// and jitter recovered in all 20 (it defers the retries, so the server drains before they
    /// come back; the bound below leaves room for the chance that a spike tips it too).
    @Test(
        "simple_collapse_sim's spike: without backoff most replications stay collapsed to the end (offered 3× the arrivals, no success), with backoff and jitter most recover"
    )
    func spikeCollapse() {
        let replications = 0..<20
        var collapsed = 0
        var recovered = 0
        for i in replications {
            let naive = Simulator.run(Self.brooker(backoff: Self.noBackoff), replication: i, checkInvariants: true)
            #expect(naive.invariantViolation == nil)
            // Before the spike: healthy (see steadyState).
            let early = (5..<20).reduce(Int64(0)) { $0 + naive.count(.timedOut, bucket: $1) }
            #expect(early <= 1, "replication \(i): \(early) timeouts before the spike")
            if naive.summary.recovered == 0 {
                collapsed += 1
                // The last 20 s: every attempt times out, each operation sends its 3 attempts.
                let window = 60..<80
                let offered = window.reduce(Int64(0)) { $0 + naive.count(.offered, bucket: $1) }
                let first = window.reduce(Int64(0)) { $0 + naive.count(.firstAttempts, bucket: $1) }
                let succeeded = window.reduce(Int64(0)) { $0 + naive.count(.succeeded, bucket: $1) }
                #expect(succeeded == 0, "replication \(i)")
                #expect(Double(offered) / Double(first) > 2.8 && Double(offered) / Double(first) < 3.1, "replication \(i): \(offered) / \(first)")
            }
            let jittered = Simulator.run(Self.brooker(backoff: Self.backoffAndJitter), replication: i, checkInvariants: true)
            #expect(jittered.invariantViolation == nil)
            if jittered.summary.recovered == 1 { recovered += 1 }
        }
        #expect(collapsed >= 14, "no backoff stayed collapsed in \(collapsed) of 20")
        #expect(recovered >= 14, "backoff and jitter recovered in \(recovered) of 20")
    }

    // MARK: - A constant-rate fleet and a 1 s pause

    /// 1,000 clients each starting an operation every 1/0.7 s (700/s) against a 1,000/s server
    /// with deterministic service: 70% utilisation. 500 ms timeouts, 3 attempts, retries at once.
    static func paused(pause: Bool) -> Scenario {
        Scenario(
            name: "pause", seed: 1, horizon: 60 * s, bucket: s,
            clients: .init(count: 1000, arrival: .constant(ratePerClient: 0.7, start: 0, until: .max), timeout: s / 2),
            server: .init(
                capacity: 1000,
                profile: pause ? .outage(at: 30 * s, duration: s, fraction: 0, recovery: .constant, ramp: 0) : .constant,
                model: .queue(.init(workers: 1, service: .deterministic, limit: nil, dropExpired: false))),
            policy: RetryPolicy(backoff: .immediate, maxAttempts: 3))
    }

    /// Before the pause the queue never waits long: in any window of a period each client starts
    /// exactly once, so the work that arrives in a window of w seconds is binomial with mean
    /// 0.7·w s and a standard deviation of at most √1000 / 2 ≈ 16 requests (16 ms): far below the
    /// 500 ms timeout, so no attempt times out. The pause queues 700 requests for up to 1 s; they
    /// time out and are sent again while the server still serves the originals. Once every
    /// attempt times out, each operation sends 3 and the server gets 3 × 700 = 2,100/s for its
    /// 1,000/s: the queue grows by 1,100 a second for good, every wait passes the timeout, and
    /// nothing succeeds (Bronson et al., "Metastable Failures in Distributed Systems", HotOS
    /// 2021: a trigger, then a sustaining effect, here retry amplification at ρ·3 = 2.1 > 1).
    @Test(
        "a constant-rate fleet at 70% utilisation: no timeout at all until a 1 s pause; after it 3 × 700 = 2,100 attempts/s against 1,000/s, the queue grows 1,100/s (±1%), nothing succeeds to the horizon"
    )
    func pauseTipsConstantFleet() {
        let calm = Simulator.run(Self.paused(pause: false), replication: 0, checkInvariants: true)
        #expect(calm.invariantViolation == nil)
        #expect(calm.summary.timedOut == 0 && calm.summary.gaveUp == 0)

        let r = Simulator.run(Self.paused(pause: true), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        for b in 0..<30 { #expect(r.count(.timedOut, bucket: b) == 0, "bucket \(b)") }
        for b in 32..<60 {
            #expect(r.count(.succeeded, bucket: b) == 0, "bucket \(b)")
            #expect(r.count(.timedOut, bucket: b) > 0, "bucket \(b)")
        }
        let growth = Double(r.queueAtEnd[59] - r.queueAtEnd[39]) / 20
        #expect(abs(growth / 1100 - 1) < 0.01, "queue grows \(growth)/s")
        let offered = (40..<60).reduce(Int64(0)) { $0 + r.count(.offered, bucket: $1) }
        #expect(abs(Double(offered) / 20 / 2100 - 1) < 0.01, "\(offered) offered in 20 s")
        #expect(r.summary.recovered == 0 && r.summary.recoverySeconds == .infinity)
    }
}
