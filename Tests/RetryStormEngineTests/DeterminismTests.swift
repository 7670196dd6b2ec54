import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// The same scenario and replication give the same result, every time; replications differ.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct DeterminismTests {
    static let scenario = Scenarios.make(
        clients: 5000, arrival: .poisson(ratePerClient: 0.1, start: 0, until: .max), timeout: 2, capacity: 1000,
        service: .exponential, limit: 800,
        profile: .outage(at: 20 * Scenarios.s, duration: 10 * Scenarios.s, fraction: 0.2, recovery: .linear, ramp: 20 * Scenarios.s),
        policy: RetryPolicy(backoff: Backoff(kind: .exponential, base: Scenarios.s, max: 30 * Scenarios.s, jitter: .full), maxAttempts: 6),
        horizon: 120)

    @Test("two runs of a replication give identical series and summaries; another replication differs")
    func sameSeedSameResult() {
        let a = Simulator.run(Self.scenario, replication: 3)
        let b = Simulator.run(Self.scenario, replication: 3)
        let c = Simulator.run(Self.scenario, replication: 4)
        #expect(a.counts == b.counts && a.queueAtEnd == b.queueAtEnd && a.summary == b.summary && a.ttsQuantiles == b.ttsQuantiles)
        #expect(a.counts != c.counts)
    }

    @Test("conservation holds after every event of a run with an outage, rejections, timeouts and retries")
    func invariants() {
        let r = Simulator.run(Self.scenario, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let s = r.summary
        #expect(s.rejected > 0 && s.timedOut > 0 && s.retries > 0)
        #expect(s.operations == s.succeeded + s.gaveUp + s.blocked + s.unfinished)
        #expect(s.attempts == s.firstAttempts + s.retries)
    }

    @Test("with deterministic service, served never exceeds the capacity integral")
    func servedWithinCapacity() {
        var sc = Self.scenario
        sc.server.model = .queue(.init(workers: 3, service: .deterministic, limit: nil, dropExpired: false))
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        let integral = sc.server.capacity * sc.server.profile.integral(from: 0, to: sc.horizon)
        #expect(Double(r.summary.served) <= integral)
        #expect(r.invariantViolation == nil)
        // Per bucket too: served in [0, t) never exceeds Λ(t), at every bucket boundary.
        var served: Int64 = 0
        for b in 0..<r.buckets {
            served += r.count(.served, bucket: b)
            let lambda = sc.server.capacity * sc.server.profile.integral(from: 0, to: Int64(b + 1) * sc.bucket)
            #expect(Double(served) <= lambda + 1e-6, "bucket \(b)")
        }
    }
}
