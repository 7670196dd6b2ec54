import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// Incidents as they happened (issue 26, item 4): trigger windows read from the data, recovery
/// judged against the run's own state before the trigger, a warmup left out of every metric, and
/// the mean load over the incident. Every expected value is worked out by hand in its comment.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct IncidentWindowTests {
    static let s = Scenarios.s

    /// The replay of the issue: capacity (fractions of nominal) 1 until 90 s, a ramp to 0.4 by
    /// 95 s, 0.4 until 240 s, a step back to 1. `CapacityProfile.replay` leaves out the pieces at
    /// nominal and keeps [90, 95) linear 1 → 0.4 and [95, 240) constant 0.4; they touch, so they
    /// are one window, below nominal from 90 s to 240 s, at 40% at its lowest, not level (it ramps).
    /// Today's main shaded only the first piece, "capacity 40% 90–95 s".
    @Test("a replayed capacity file: one window 90–240 s, down to 40%, ramp and plateau together")
    func replayWindow() {
        let points: [(time: Nanoseconds, fraction: Double)] = [(0, 1), (90 * Self.s, 1), (95 * Self.s, 0.4), (240 * Self.s, 0.4), (240 * Self.s, 1)]
        let profile = CapacityProfile.replay(points, until: 300 * Self.s)
        #expect(TriggerWindow.capacity(profile) == [TriggerWindow(kind: .capacity(lowest: 0.4, level: false), start: 90 * Self.s, end: 240 * Self.s)])
        // A step down at 95 s instead: the window starts at 95 s, level at 40%.
        let step = CapacityProfile.replay([(0, 1), (95 * Self.s, 1), (95 * Self.s, 0.4), (240 * Self.s, 0.4), (240 * Self.s, 1)], until: 300 * Self.s)
        #expect(TriggerWindow.capacity(step) == [TriggerWindow(kind: .capacity(lowest: 0.4, level: true), start: 95 * Self.s, end: 240 * Self.s)])
    }

    /// A load file 1 until 200 s, a step to 1.2 until 260 s, back to 1; then a second rise from
    /// 1 at 300 s to 2 at 310 s and back to 1 at 320 s (above 1 on (300, 320)): two windows,
    /// [200, 260) at ×1.2 and [300, 320) at ×2. A capacity drop and this load give the incident
    /// from the first start (the capacity's 90 s) to the last end (320 s).
    @Test("load above its base: one window per rise, each with its peak; the incident spans them all")
    func loadWindows() {
        let load = LoadProfile(
            points: [
                .init(time: 0, multiplier: 1), .init(time: 200 * Self.s, multiplier: 1), .init(time: 200 * Self.s, multiplier: 1.2),
                .init(time: 260 * Self.s, multiplier: 1.2), .init(time: 260 * Self.s, multiplier: 1), .init(time: 300 * Self.s, multiplier: 1),
                .init(time: 310 * Self.s, multiplier: 2), .init(time: 320 * Self.s, multiplier: 1)
            ])
        #expect(
            TriggerWindow.load(load) == [
                TriggerWindow(kind: .load(peak: 1.2), start: 200 * Self.s, end: 260 * Self.s),
                TriggerWindow(kind: .load(peak: 2), start: 300 * Self.s, end: 320 * Self.s)
            ])
        var sc = Scenarios.make(
            clients: 1, arrival: .poisson(ratePerClient: 1, start: 0, until: 400 * Self.s), timeout: nil, capacity: 10,
            profile: .replay([(0, 1), (90 * Self.s, 1), (95 * Self.s, 0.4), (240 * Self.s, 0.4), (240 * Self.s, 1)], until: 400 * Self.s),
            policy: Scenarios.noRetries, horizon: 400)
        sc.load = load
        #expect(sc.trigger?.start == 90 * Self.s && sc.trigger?.end == 320 * Self.s)
        #expect(sc.triggerWindows().count == 3)
        #expect(sc.triggerWindows(limit: 1).count == 2)
    }

    /// Buckets of 100 attempts each; failures 0, 1, 0, 1 before the trigger (buckets 0…3), so the
    /// baseline share is 2 / 400 = 0.005 and a bucket of 100 attempts expects e = 0.5 failures.
    /// With a window of 3 buckets, a bucket counts when it fails more than 0.5 and the three
    /// buckets from it (cut at the end) fail more than E + 4·√E + 2 with E = 0.005 × their attempts:
    /// - bucket 9 (3): alone, E = 0.5, bound 5.33: no;
    /// - bucket 7 (1): buckets 7…9 hold 1 + 0 + 3 = 4, E = 1.5, bound 8.40: no; bucket 6 (2):
    ///   2 + 1 + 0 = 3: no;
    /// - bucket 5 (40): 40 + 2 + 1 = 43 > 8.40: the last failing bucket, healthy from 6.
    /// Without a baseline (nothing failed before, E = 0) the bound is 2: the stray 1s of buckets 7
    /// and 9 (2 within 7…9) do not count, and bucket 6's 2 + 1 + 0 = 3 does.
    @Test("recovery against the baseline: a pre-existing trickle or a stray failure is not a failure, a sustained excess is")
    func recoveryRule() {
        let failures: [Int64] = [0, 1, 0, 1, 50, 40, 2, 1, 0, 3]
        let attempts = [Int64](repeating: 100, count: 10)
        let rule = RecoveryRule(failures: failures, attempts: attempts, baseline: 0..<4)
        #expect(rule.baselineShare == 0.005)
        #expect(rule.lastFailing(failures: failures, attempts: attempts, in: 0..<10, window: 3) == 5)
        #expect(!rule.failing(failures: 5, attempts: 100) && rule.failing(failures: 6, attempts: 100))
        let cleanFailures: [Int64] = [0, 0, 0, 0, 50, 40, 2, 1, 0, 1]
        let clean = RecoveryRule(failures: cleanFailures, attempts: attempts, baseline: 0..<4)
        #expect(clean.baselineShare == 0)
        #expect(!clean.failing(failures: 2, attempts: 100) && clean.failing(failures: 3, attempts: 100))
        #expect(clean.lastFailing(failures: cleanFailures, attempts: attempts, in: 0..<10, window: 3) == 6)
        // A window of one bucket judges each bucket alone: bucket 6's 2 is no more than 2.
        #expect(clean.lastFailing(failures: cleanFailures, attempts: attempts, in: 0..<10, window: 1) == 5)
    }

    /// A heavy-tailed service behind a healthy 1 s timeout: Pareto service (shape 1.5) with a mean
    /// of 100 workers / 1,000/s = 0.1 s, so x_m = 0.1·(1.5 − 1)/1.5 = 1/30 s and P(service > 1 s)
    /// = (1/30)^1.5 ≈ 0.6%: a steady trickle of timeouts at every load. An outage to 20% at 100 s
    /// for 20 s with an instant return, a queue of at most 200. Today's main calls every bucket
    /// with a timeout failing, so the trickle makes recovery never (recovered 0); judged against
    /// the trickle before the trigger, the run recovers, soon after the outage.
    @Test("a steady trickle of timeouts before the trigger does not make recovery never")
    func trickleRecovers() {
        var sc = Scenarios.make(
            clients: 500, arrival: .poisson(ratePerClient: 1, start: 0, until: 300 * Self.s), timeout: 1, capacity: 1000,
            service: .pareto(shape: 1.5), workers: 100, limit: 200,
            profile: .outage(at: 100 * Self.s, duration: 20 * Self.s, fraction: 0.2, recovery: .constant, ramp: 0),
            policy: Scenarios.constantBackoff(0.5, attempts: 3), horizon: 300, seed: 3)
        sc.warmup = 0
        let s = Simulator.run(sc, replication: 0, checkInvariants: true).summary
        // The trickle: timeouts keep coming long after the outage (the old rule's "never").
        #expect(s.timedOut > 0)
        #expect(s.recovered == 1)
        #expect(s.recoverySeconds.isFinite && s.recoverySeconds >= 20 && s.recoverySeconds < 60)
        #expect(s.incidentTTSP99.isFinite || s.incidentTTSP99 == .infinity)
    }

    /// Ten clients each starting an operation every second from a random phase in [0, 1) until
    /// 9 s: 9 operations each, 90 in all, exactly 10 in every 1 s bucket. The server is down (0%)
    /// from 0 to 2 s and operations time out after 0.5 s without retrying, so some of the first
    /// seconds' operations give up. With `warmup: 2s` the buckets 0 and 1 are left out: 7
    /// operations per client, 70; each starts with the server up, is served at once by one of 100
    /// workers in 100 / 1,000/s = 0.1 s, well inside its timeout: 70 succeed, none gives up, none
    /// unfinished, 70 attempts, and every time to success is 0.1 s.
    @Test("a warmup leaves its operations and counts out of every metric")
    func warmupExcludesTheStart() {
        var sc = Scenarios.make(
            clients: 10, arrival: .constant(ratePerClient: 1, start: 0, until: 9 * Self.s), timeout: 0.5, capacity: 1000,
            workers: 100, profile: .outage(at: 0, duration: 2 * Self.s, fraction: 0, recovery: .constant, ramp: 0),
            policy: Scenarios.noRetries, horizon: 20)
        let cold = Simulator.run(sc, replication: 0, checkInvariants: true).summary
        #expect(cold.operations == 90 && cold.gaveUp > 0)
        sc.warmup = 2 * Self.s
        let warm = Simulator.run(sc, replication: 0, checkInvariants: true).summary
        #expect(warm.operations == 70 && warm.succeeded == 70 && warm.gaveUp == 0 && warm.unfinished == 0)
        #expect(warm.attempts == 70 && warm.gaveUpFraction == 0)
        #expect(abs(warm.ttsP99 - 0.1) < 1e-6 && abs(warm.ttsMax - 0.1) < 1e-6)
        // Split into two populations of five clients: each has 5 × 7 = 35 operations after the
        // warmup, all of which succeed; populations.csv leaves the warmup out as summary.csv does.
        sc.populations = ["a", "b"].map { name in
            var clients = sc.clients
            clients.count = 5
            return Scenario.Population(name: name, clients: clients, policy: Scenarios.noRetries)
        }
        let split = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(split.populations.map(\.operations) == [35, 35])
        #expect(split.populations.map(\.succeeded) == [35, 35] && split.populations.map(\.gaveUp) == [0, 0])
        #expect(split.populations.map(\.attempts) == [35, 35])
    }

    /// 100 clients starting an operation every second (exactly 100 in every 1 s bucket), no
    /// failures, no retries; capacity 200/s drops to 25% (50/s) from 10 s to 20 s and returns at
    /// once. Nothing fails, so the incident is the trigger's buckets 10…19: 1,000 attempts reach
    /// the server against 50/s × 10 s = 500 of capacity, a mean load of 1,000 / 500 = 2×.
    @Test("the mean load over the incident: 1,000 attempts against 500 of capacity is 2×")
    func incidentLoad() {
        let sc = Scenarios.make(
            clients: 100, arrival: .constant(ratePerClient: 1, start: 0, until: 60 * Self.s), timeout: nil, capacity: 200,
            profile: .outage(at: 10 * Self.s, duration: 10 * Self.s, fraction: 0.25, recovery: .constant, ramp: 0),
            policy: Scenarios.noRetries, horizon: 60)
        let s = Simulator.run(sc, replication: 0, checkInvariants: true).summary
        #expect(s.recoverySeconds == 0)
        #expect(s.incidentLoadRatio == 2)
        // Without a trigger there is no incident to average over.
        var flat = sc
        flat.server.profile = .constant
        #expect(Simulator.run(flat, replication: 0).summary.incidentLoadRatio.isNaN)
    }

    /// The horizon warning: an outage from 50 s for 20 s (with no ramp) ends at 70 s, after a
    /// 60 s horizon; with a 600 s horizon it ends 530 s before it (more than a tenth): no warning.
    @Test("a horizon that ends before the trigger does is a warning")
    func horizonWarning() {
        var sc = Scenarios.make(
            clients: 1, arrival: .poisson(ratePerClient: 1, start: 0, until: 60 * Self.s), timeout: nil, capacity: 10,
            profile: .outage(at: 50 * Self.s, duration: 20 * Self.s, fraction: 0.2, recovery: .constant, ramp: 0),
            policy: Scenarios.noRetries, horizon: 60)
        #expect(
            sc.horizonWarning
                == "the trigger is still on at the horizon (60 s): neither its end nor the recovery can be seen; make the horizon longer")
        sc.horizon = 600 * Self.s
        #expect(sc.horizonWarning == nil)
        sc.horizon = 75 * Self.s
        #expect(
            sc.horizonWarning
                == "the trigger ends at 70 s, only 5 s before the horizon (75 s): too little time to see a recovery; make the horizon longer")
    }
}
