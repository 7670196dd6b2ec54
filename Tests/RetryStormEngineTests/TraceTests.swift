import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// Tiny deterministic scenarios whose every event is worked out by hand in the comments; the
/// summary must match exactly. They pin timeouts, cancellation by generation, wasted work,
/// expiry and the end of the run.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct TraceTests {
    /// Every trace runs twice: the default way (the FIFO queue solved on arrival, attempt outcomes
    /// settled when the attempt is sent) and with every happening a queued event. Nothing random
    /// moves in these scenarios, so the two must agree exactly.
    static let modes = [false, true]

    @Test("one client, 1 s service, 0.5 s timeout, 3 attempts 1 s apart: every answer comes too late", arguments: modes)
    func abandonedAttemptsAreWasted(allEvents: Bool) {
        // t=0 attempt 1 (service until 1.0, timeout 0.5) · 0.5 timeout → retry at 1.5 · 1.0 done: client
        // gone → wasted · 1.5 attempt 2 · 2.0 timeout → retry 3.0 · 2.5 wasted · 3.0 attempt 3 · 3.5
        // timeout → attempts exhausted → gave up · 4.0 wasted. Nine events as events: the arrival, two
        // retries, three timeouts, three completions. Six the default way: completions for nobody are
        // no events (the FIFO server knows at arrival when the work ends and counts it served and
        // wasted in that bucket), and each timeout is settled as its attempt is sent (still one event).
        let sc = Scenarios.make(
            clients: 1, arrival: .burst(at: 0), timeout: 0.5, capacity: 1,
            policy: Scenarios.constantBackoff(1, attempts: 3), horizon: 10)
        let r = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: allEvents)
        let s = r.summary
        #expect(r.invariantViolation == nil)
        #expect(s.operations == 1 && s.attempts == 3 && s.firstAttempts == 1 && s.retries == 2)
        #expect(s.timedOut == 3 && s.served == 3 && s.wasted == 3 && s.succeeded == 0 && s.gaveUp == 1)
        #expect(s.events == (allEvents ? 9 : 6))
        #expect(s.simEndSeconds == 4)
        #expect(s.wastedFraction == 1)
        // Its one operation gave up: never in the survival view, undefined among successes.
        #expect(s.ttsMean == .infinity && s.ttsP50 == .infinity && s.ttsSuccessMean.isNaN)
        // Buckets of 1 s: attempts at 0, 1.5, 3 → buckets 0, 1, 3; wasted at 1, 2.5, 4 → buckets 1, 2, 4.
        #expect((0..<5).map { r.count(.firstAttempts, bucket: $0) + r.count(.retries, bucket: $0) } == [1, 1, 0, 1, 0])
        #expect((0..<5).map { r.count(.wasted, bucket: $0) } == [0, 1, 1, 0, 1])
        #expect((0..<5).map { r.count(.timedOut, bucket: $0) } == [1, 0, 1, 1, 0])
        // No trigger: nothing to recover from (``Recovery``), however many attempts failed.
        #expect(s.recoverySeconds.isNaN && s.recovered.isNaN)
    }

    @Test(
        "drop_expired: a request whose deadline passed while it waited is dropped, not served",
        arguments: [true, false], modes)
    func expiredRequests(drop: Bool, allEvents: Bool) {
        // Two clients at t=0, 1 s service, 0.9 s timeout, no retries. A is served (until 1.0), B waits.
        // 0.9: both time out and give up. 1.0: A's answer is wasted; B reached the head after its
        // deadline: dropped with drop_expired, else served until 2.0 for nobody. Events: two arrivals,
        // two timeouts, and as events A's completion (B's drop is part of it) or both completions.
        let sc = Scenarios.make(
            clients: 2, arrival: .burst(at: 0), timeout: 0.9, capacity: 1,
            dropExpired: drop, policy: Scenarios.noRetries, horizon: 10)
        let s = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: allEvents).summary
        #expect(s.timedOut == 2 && s.gaveUp == 2 && s.succeeded == 0)
        #expect(s.served == (drop ? 1 : 2))
        #expect(s.wasted == (drop ? 1 : 2))
        #expect(s.expired == (drop ? 1 : 0))
        #expect(s.events == (allEvents ? (drop ? 5 : 6) : 4))
        #expect(s.simEndSeconds == (drop ? 1 : 2))
        // Waits: A none, B 1 s (until the head) → mean 0.5 s over the two admitted.
        #expect(s.waitMeanSeconds == 0.5)
    }

    @Test("a full queue answers 503 at once; the retry after 1 s succeeds", arguments: modes)
    func queueLimit(allEvents: Bool) {
        // Capacity 1/s, queue limit 0, three clients at t=0: A is served (0–1 s); B and C are rejected
        // at once and retry at 1.0: B is served 1–2 s, C is rejected again and retries at 2.0 (2–3 s).
        let sc = Scenarios.make(
            clients: 3, arrival: .burst(at: 0), timeout: nil, capacity: 1, limit: 0,
            policy: Scenarios.constantBackoff(1, attempts: 5), horizon: 10)
        let r = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: allEvents)
        let s = r.summary
        #expect(s.rejected == 3 && s.succeeded == 3 && s.attempts == 6 && s.retries == 3)
        #expect(s.ttsMax == 3 && s.ttsP50 == 2 && s.ttsMean == 2)
        #expect(s.peakOfferedPerSecond == 3)
        #expect(s.peakLoadRatio == 3)
        #expect(s.recoverySeconds.isNaN)
    }

    @Test("the horizon is a hard stop: a server that never recovers still ends", arguments: modes)
    func horizonStops(allEvents: Bool) {
        let dead = CapacityProfile(segments: [.init(start: 0, end: .max, from: 0, to: 0, shape: .constant)])
        let sc = Scenarios.make(
            clients: 100, arrival: .burst(at: 0), timeout: 1, capacity: 10, profile: dead,
            policy: RetryPolicy(backoff: .immediate, maxAttempts: 1_000_000), horizon: 30)
        let s = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: allEvents).summary
        #expect(s.simEndSeconds == 30)
        #expect(s.succeeded == 0 && s.unfinished == 100)
        #expect(s.recoverySeconds == .infinity)
        // Each client times out every second and retries at once: attempts at 0, 1, …, 29.
        #expect(s.attempts == 100 * 30)
    }
}

/// Concurrency slots under nudges and restarts: an operation re-parked while still linked in its
/// host's slot queue (a nudge or restart superseded its wait) must not be linked twice — that made
/// the queue a cycle and the run spin for ever.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct SlotQueueTests {
    @Test(
        "a fleet with 4-slot hosts, an offline window with a reconnect nudge and a restart wave ends, keeping every invariant",
        arguments: 0..<5)
    func slotsSurviveNudgesAndRestarts(replication: Int) {
        var policy = RetryPolicy.offlineFirst
        policy.maxAttempts = 10
        let s: Int64 = 1_000_000_000
        let sc = Scenario(
            name: "slots", seed: 21, horizon: 400 * s, bucket: s,
            clients: .init(
                count: 3000, arrival: .poisson(ratePerClient: 0.05, start: 0, until: .max), timeout: 10 * s,
                connectTimeout: 5 * s, backgroundFraction: 0.3,
                offline: .init(at: 60 * s, duration: 120 * s, fraction: 0.4, nudge: true),
                restart: .init(at: 300 * s, fraction: 0.5), credentialLifetime: 900 * s),
            server: .init(
                capacity: 100, profile: .constant,
                model: .queue(.init(workers: 8, service: .exponential, limit: 50, dropExpired: false, shedRetryAfter: 5 * s)),
                rateLimit: .init(rate: 35, burst: 10, retryAfter: 10 * s)),
            policy: policy, network: .init(shape: .lognormal, mean: 80_000_000, spread: 0.6))
        let r = Simulator.run(sc, replication: replication, checkInvariants: true)
        #expect(r.invariantViolation == nil, "\(r.invariantViolation ?? "")")
        #expect(r.summary.simEndSeconds == 400)
        #expect(r.summary.offline > 0 && r.summary.abandoned > 0)
    }
}

/// Writes whose outcome is ambiguous (lost answers, timeouts after the server applied them): the
/// engine tracks which writes the server applied, so an ended operation's slot waits until its last
/// request is done at the server before it is reused. The debug pass with internal checks
/// (`make check-debug`) checks the operation table's states at the end of these runs; no other
/// engine test ends operations with requests still at the server.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct AppliedWriteTests {
    static func scenario(_ ambiguity: AmbiguityPolicy) -> Scenario {
        var policy = Scenarios.constantBackoff(0.5, attempts: 4)
        policy.ambiguity = ambiguity
        let s: Int64 = 1_000_000_000
        return Scenario(
            name: "ambiguous", seed: 5, horizon: 60 * s, bucket: s,
            clients: .init(count: 1000, arrival: .poisson(ratePerClient: 0.1, start: 0, until: .max), timeout: s),
            server: .init(
                capacity: 75, profile: .constant,
                model: .queue(.init(workers: 4, service: .exponential, limit: nil, dropExpired: false)),
                errors: .init(permanent: 0, serverError: 0.05, ambiguous: 0.1)),
            policy: policy, network: .init(shape: .exponential, mean: 50_000_000, spread: 0))
    }

    @Test("without idempotency keys retried writes are applied twice; every invariant holds")
    func duplicates() {
        let r = Simulator.run(Self.scenario(.init(idempotency: .none)), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil, "\(r.invariantViolation ?? "")")
        #expect(r.summary.duplicates > 0 && r.summary.timedOut > 0)
    }

    @Test("reconciliation asks the server before retrying; every invariant holds")
    func reconciliation() {
        let r = Simulator.run(
            Self.scenario(.init(idempotency: .notRetried, reconcile: true, reconcileDelay: 200_000_000)),
            replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil, "\(r.invariantViolation ?? "")")
        #expect(r.summary.queries > 0 && r.summary.confirmed > 0)
    }
}
