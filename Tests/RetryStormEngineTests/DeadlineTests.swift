import RetryPolicy
import RetryStormEngine
import Testing

/// `clients.deadline` (issue 28): an operation's end-to-end deadline, as a gRPC call deadline
/// (A6: the deadline applies across all attempts). Each attempt's timeout is the smaller of its
/// own and the time left, the server sees that deadline, and no attempt starts at or after it.
/// Traces worked out by hand.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct DeadlineTests {
    static let s = Scenarios.s

    /// One client at t = 0; the `flaky` server answers every attempt after 100 s, so each attempt
    /// times out (1 s); constant backoff 0.5 s, up to 10 attempts.
    static func silent(deadline: Double?) -> Scenario {
        var sc = Scenario(
            name: "deadline", seed: 5, horizon: 60 * s, bucket: s,
            clients: .init(count: 1, arrival: .burst(at: 0), timeout: s),
            server: .init(capacity: 1_000_000, profile: .constant, model: .flaky(.init(failure: 0, latency: 100 * s))),
            policy: Scenarios.constantBackoff(0.5, attempts: 10))
        sc.clients.deadline = deadline.map(Scenarios.ns)
        return sc
    }

    /// Deadline 3.2 s: attempt 1 at 0 times out at 1; attempt 2 at 1.5 times out at 2.5; attempt 3
    /// at 3.0 has 0.2 s left, so it times out at 3.2, not 4.0; the retry planned for 3.7 would
    /// start past the deadline: the operation gives up at 3.2 s, after 3 attempts. Without the
    /// deadline it makes its 10 attempts (the last times out at 9 × 1.5 + 1 = 14.5 s).
    @Test("attempts are cut to the time left and none starts past the deadline: 3 attempts, given up at 3.2 s")
    func cutAndStop() {
        let r = Simulator.run(Self.silent(deadline: 3.2), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        #expect(r.summary.attempts == 3 && r.summary.timedOut == 3 && r.summary.gaveUp == 1 && r.summary.succeeded == 0)
        // Given up in the bucket of 3.2 s, the third.
        #expect((0..<10).map { r.count(.gaveUp, bucket: $0) } == [0, 0, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect((0..<5).map { r.count(.timedOut, bucket: $0) } == [0, 1, 1, 1, 0])

        let free = Simulator.run(Self.silent(deadline: nil), replication: 0, checkInvariants: true)
        #expect(free.summary.attempts == 10 && free.summary.gaveUp == 1)
        #expect((0..<16).map { free.count(.gaveUp, bucket: $0) }.firstIndex(of: 1) == 14)
    }

    /// One worker serving 1 request per second (deterministic), three clients at t = 0, a 10 s
    /// timeout, no retries, the queue dropping requests whose deadline passed when they reach its
    /// head. Deadline 1.5 s: request 1 is served 0–1 s (success); request 2 starts at 1 s, before
    /// its deadline, so it is served 1–2 s, but its client stopped waiting at 1.5 s (timed out,
    /// wasted work); request 3 reaches the head at 2 s, past 1.5 s: dropped, no work. Without the
    /// deadline the 10 s timeout binds nobody: three successes at 1, 2 and 3 s.
    @Test("the server sees the deadline: a request past it is dropped at the queue's head")
    func propagated() {
        func run(_ deadline: Double?) -> Summary {
            var sc = Scenarios.make(
                clients: 3, arrival: .burst(at: 0), timeout: 10, capacity: 1, dropExpired: true, policy: Scenarios.noRetries, horizon: 20)
            sc.clients.deadline = deadline.map(Scenarios.ns)
            let r = Simulator.run(sc, replication: 0, checkInvariants: true)
            #expect(r.invariantViolation == nil)
            return r.summary
        }
        let cut = run(1.5)
        #expect(cut.succeeded == 1 && cut.timedOut == 2 && cut.served == 2 && cut.wasted == 1 && cut.expired == 1 && cut.gaveUp == 2)
        let free = run(nil)
        #expect(free.succeeded == 3 && free.timedOut == 0 && free.expired == 0)
    }

    /// A deadline no operation reaches changes no number: the quickstart's brownout (10,000
    /// clients scaled to 2,000, a 2 s timeout, 6 attempts over at most ~16 s) with a 200 s deadline
    /// gives the run without one, bit for bit (its timeouts go to the wheel instead of the FIFO,
    /// ordered by the same (time, sequence)).
    @Test("a deadline that never binds gives the same results as none")
    func neverBinds() {
        let brownout = CapacityProfile.outage(
            at: Scenarios.ns(60), duration: Scenarios.ns(30), fraction: 0.2, recovery: .linear, ramp: Scenarios.ns(60))
        var sc = Scenarios.make(
            clients: 2000, arrival: .poisson(ratePerClient: 0.05, start: 0, until: .max), timeout: 2, capacity: 100,
            service: .exponential, limit: 100, profile: brownout,
            policy: RetryPolicy(backoff: Backoff(kind: .exponential, base: Scenarios.ns(1), max: Scenarios.ns(60), jitter: .full), maxAttempts: 6),
            horizon: 300)
        let free = Simulator.run(sc, replication: 0)
        sc.clients.deadline = Scenarios.ns(200)
        let bound = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(bound.invariantViolation == nil)
        #expect(bound.counts == free.counts)
        #expect(bound.summary.succeeded == free.summary.succeeded && bound.summary.gaveUp == free.summary.gaveUp && bound.summary.gaveUp > 0)
    }
}
