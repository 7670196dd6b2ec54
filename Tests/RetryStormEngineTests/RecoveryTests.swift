import RetryPolicy
import RetryStormEngine
import Testing

/// ``Recovery``: no trigger is `nan`, a stray failure is not a storm, and a run still saturated at
/// the horizon has not recovered, though nothing may be failing.
@Suite("Recovery that holds")
struct RecoveryTests {
    static let s = Scenarios.s

    /// The congestion collapse of ``collapseWithoutFailures()``: 500 clients at 0.1/s, no timeout,
    /// no retries; 100 workers at 100/s, each request 1 ms slower per 1,000 in the system; capacity
    /// 0 for `seconds` from `start` (seconds), over a 200 s run.
    static func collapse(outageAt start: Int64, seconds: Int64) -> Scenario {
        Scenario(
            name: "collapse", seed: 1, horizon: 200 * s, bucket: s,
            clients: .init(count: 500, arrival: .poisson(ratePerClient: 0.1, start: 0, until: .max), timeout: nil),
            server: .init(
                capacity: 100, profile: .outage(at: start * s, duration: seconds * s, fraction: 0, recovery: .constant, ramp: 0),
                model: .queue(.init(workers: 100, service: .deterministic, limit: nil, dropExpired: false, congestion: 1_000_000))),
            policy: Scenarios.noRetries)
    }

    /// ``collapse(outageAt:seconds:)``'s server (a 30 s outage at 50 s) as the database behind a
    /// front service (1,000 workers at 100,000/s, releasing its worker while it calls) that calls
    /// it once per request with no timeout (``downstreamSaturation()``).
    static func collapsingGraph() -> Scenario {
        let db = collapse(outageAt: 50, seconds: 30).server
        let front = Scenario.Server(
            capacity: 100_000, profile: .constant,
            model: .queue(.init(workers: 1000, service: .deterministic, limit: nil, dropExpired: false)))
        var sc = collapse(outageAt: 50, seconds: 30)
        sc.name = "graph"
        sc.server = front
        sc.services = [
            .init(name: "front", server: front, releaseWhileCalling: true, calls: [.init(to: 1, timeout: nil, policy: Scenarios.noRetries)]),
            .init(name: "db", server: db)
        ]
        return sc
    }

    /// Flat per-bucket counts, as a recorder holds them: `buckets[b][counter]`, 0 where absent.
    static func counts(_ buckets: [[Counter: Int64]]) -> [Int64] {
        let width = Counter.allCases.count
        var out = [Int64](repeating: 0, count: buckets.count * width)
        for (b, bucket) in buckets.enumerated() { for (c, v) in bucket { out[b * width + c.rawValue] = v } }
        return out
    }

    /// 1,000 attempts a bucket, all served; failures as given (timeouts), useful work as given.
    static func bucket(failures: Int64 = 0, served: Int64 = 1000, wasted: Int64 = 0) -> [Counter: Int64] {
        [.firstAttempts: 1000, .offered: 1000, .served: served, .wasted: wasted, .timedOut: failures]
    }

    static func recovery(_ buckets: [[Counter: Int64]], queue: [Int64]? = nil, limit: Int? = nil, trigger: (Int64, Int64)? = (10, 20))
        -> Recovery
    {
        Recovery(
            counts: counts(buckets), queueAtEnd: queue ?? [Int64](repeating: 0, count: buckets.count), queueLimit: limit,
            bucket: s, trigger: trigger.map { (start: $0.0 * s, end: $0.1 * s) }, warm: 0, window: 10 * s)
    }

    /// 60 one-second buckets, a trigger 10–20 s, nothing failing before it (a zero baseline: a
    /// stretch fails above 2 failures). The storm fails 500 a bucket in 10–29 s; then one stray
    /// timeout at 45 s. The window from 45 s holds 1 failure, so it does not count: recovery at
    /// 30 s, 20 s after the trigger began. Three failures at 45, 50 and 54 s (one window) do.
    @Test("a stray failure after the storm does not move the recovery; three in one window do")
    func strayFailure() {
        var buckets = (0..<60).map { b in Self.bucket(failures: (10..<30).contains(b) ? 500 : 0) }
        buckets[45] = Self.bucket(failures: 1)
        let r = Self.recovery(buckets)
        #expect(r.seconds == 20 && r.healthyBucket == 30 && !r.saturated && r.recovered == 1)
        buckets[50] = Self.bucket(failures: 1)
        buckets[54] = Self.bucket(failures: 1)
        #expect(Self.recovery(buckets).seconds == 45 - 10 + 1)
    }

    /// Without a trigger there is nothing to recover from: NaN, whatever failed.
    @Test("no trigger: recovery and recovered are nan, not a time")
    func noTrigger() {
        let r = Self.recovery((0..<60).map { Self.bucket(failures: $0 == 40 ? 100 : 0) }, trigger: nil)
        #expect(r.seconds.isNaN && r.recovered.isNaN && r.healthyBucket == nil && !r.saturated)
    }

    /// Nothing fails, but the queue sits at its limit of 200 at the end of every bucket of the
    /// last 10 s (50–59): saturated, never recovered. One bucket below the limit in it: not.
    @Test("a queue full throughout the last window is saturation; one bucket below the limit is not")
    func queueFull() {
        let buckets = (0..<60).map { _ in Self.bucket() }
        var queue = (0..<60).map { $0 >= 40 ? Int64(200) : 0 }
        let full = Self.recovery(buckets, queue: queue, limit: 200)
        #expect(full.saturated && full.seconds == .infinity && full.recovered == 0 && full.healthyBucket == nil)
        queue[55] = 199
        #expect(!Self.recovery(buckets, queue: queue, limit: 200).saturated)
        // Unbounded: the queue test does not apply.
        #expect(!Self.recovery(buckets, queue: (0..<60).map { _ in 200 }, limit: nil).saturated)
    }

    /// Goodput over the last window against what arrived, scaled by the baseline's useful share:
    /// - a baseline serving everything usefully (share 1) and a last window of 10,000 arrivals
    ///   with 6,000 served for nobody: useful 4,000 < 10,000 − 4·100 − 2 = 9,598: saturated;
    /// - a baseline that served 900 of 1,000 a bucket usefully (share 0.9) and the same 880 a
    ///   bucket at the end: 8,800 ≥ 9,000 − 4·√9,000 − 2 = 8,618.5: not saturated, and 800 a
    ///   bucket (8,000) is.
    @Test("goodput short of what arrives, against the baseline's own share, is saturation")
    func goodputShort() {
        let wasted = (0..<60).map { Self.bucket(wasted: $0 >= 50 ? 600 : 0) }
        #expect(Self.recovery(wasted).saturated)
        let limited = (0..<60).map { b in Self.bucket(served: b < 10 ? 900 : b >= 50 ? 880 : 1000) }
        #expect(!Self.recovery(limited).saturated)
        let short = (0..<60).map { b in Self.bucket(served: b < 10 ? 900 : b >= 50 ? 800 : 1000) }
        #expect(Self.recovery(short).saturated)
        // A trigger still on in the last window leaves nothing to judge saturation on.
        #expect(!Self.recovery(wasted, trigger: (10, 60)).saturated)
    }

    /// Congestion collapse with nothing failing. 100 workers at 100/s (1 s of work each), 1 ms more
    /// per request in the system when one starts service, Poisson 50/s, no timeout, no retries, an
    /// unbounded queue. With n requests in the system (n ≥ 100) the server completes
    /// 100 / (1 + 0.001·n) a second, below the 50/s arriving once n > 1,000: past that backlog the
    /// queue grows for ever. The healthy state holds n = 50·(1 + 0.001·n), about 53.
    /// - An outage to 0 for 30 s piles up about 50·30 = 1,500 > 1,000: nothing times out or is
    ///   rejected, yet goodput falls below what arrives: saturated at the horizon, never recovered.
    /// - For 5 s, about 300 < 1,000: it drains (100/1.3 ≈ 77/s > 50/s), nothing failed: recovered, 0 s.
    @Test("congestion collapse without a failure is saturation at the horizon; a short outage drains and recovers")
    func collapseWithoutFailures() {
        func run(outage seconds: Int64) -> Summary {
            let r = Simulator.run(Self.collapse(outageAt: 50, seconds: seconds), replication: 0, checkInvariants: true)
            #expect(r.invariantViolation == nil)
            return r.summary
        }
        let collapsed = run(outage: 30)
        #expect(collapsed.timedOut == 0 && collapsed.rejected == 0 && collapsed.expired == 0)
        #expect(collapsed.recovered == 0 && collapsed.recoverySeconds == .infinity && collapsed.recoveryAfterTriggerSeconds == .infinity)
        let drained = run(outage: 5)
        #expect(drained.timedOut == 0 && drained.rejected == 0)
        #expect(drained.recovered == 1 && drained.recoverySeconds == 0)
    }

    /// The same collapse one hop down: a front service (1,000 workers at 100,000/s, 10 µs a request,
    /// releasing its worker while it calls) calls `db` once per request with no timeout; `db` is
    /// the collapsing server above with its 30 s outage. Nothing times out or is rejected anywhere,
    /// so the users' failures say nothing; `db`'s goodput falls below what reaches it (the
    /// closed form above), so `db` is saturated at the horizon and the run has not recovered.
    @Test("a call graph whose database is saturated at the horizon has not recovered, though no user saw a failure")
    func downstreamSaturation() {
        let r = Simulator.run(Self.collapsingGraph(), replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        #expect(r.summary.timedOut == 0 && r.summary.rejected == 0 && r.summary.gaveUp == 0)
        let services = Dictionary(uniqueKeysWithValues: r.services.map { ($0.name, $0) })
        #expect(services["db"]?.recovery.saturated == true && services["db"]?.recovery.recovered == 0)
        #expect(r.summary.recovered == 0 && r.summary.recoverySeconds == .infinity)
    }

    /// A run without a trigger: a heavy-tailed service behind a tight timeout times out a steady
    /// trickle (Pareto 1.5 with mean 0.1 s: P(S > 1 s) = (1/30)^1.5 ≈ 0.6%), but there is no
    /// incident to recover from: recovery, recovered and the time after the trigger are NaN. Those
    /// failures are stray: the run is judged stuck or not (no trigger: the whole run is at its
    /// base, ``Stuck``), and it is not.
    @Test("a run without a trigger says nan for recovery, however many attempts failed, and is not stuck")
    func noTriggerRun() {
        let sc = Scenarios.make(
            clients: 500, arrival: .poisson(ratePerClient: 1, start: 0, until: 100 * Self.s), timeout: 1, capacity: 1000,
            service: .pareto(shape: 1.5), workers: 100, limit: 200, policy: Scenarios.noRetries, horizon: 100, seed: 3)
        let s = Simulator.run(sc, replication: 0, checkInvariants: true).summary
        #expect(s.timedOut > 0)
        #expect(s.recoverySeconds.isNaN && s.recovered.isNaN && s.recoveryAfterTriggerSeconds.isNaN)
        #expect(s.stuck == 0)
    }
}
