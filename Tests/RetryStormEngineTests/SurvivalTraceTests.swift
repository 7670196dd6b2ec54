import RetryPolicy
import RetryStormEngine
import TestSupport
import Testing

/// Time to success counts every operation (issue 26): traces worked out by hand in which one
/// operation of ten does not succeed, so the survival view's p90 and p99 are never while the
/// statistics among successes stay finite.
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct SurvivalTraceTests {
    /// Ten clients at t = 0, a FIFO server serving one request a second (deterministic): client k
    /// (0-based) is served from k to k + 1 s. With a 9.5 s timeout and no retries, clients 0…8
    /// succeed after 1, 2, …, 9 s and client 9 (due at 10 s) times out at 9.5 s and gives up.
    /// Survival view over n = 10 (h = 9f, x[9] = ∞): p50 → h 4.5 → 0.5·5 + 0.5·6 = 5.5;
    /// p90 → h 8.1 → weighs ∞ by 0.1 → never; p99, p99.9, max, mean → never.
    /// Among the 9 successes (h = 8f): p50 → x[4] = 5; p90 → h 7.2 → 8 + 0.2 = 8.2;
    /// p99 → h 7.92 → 8.92; max 9; mean (1 + … + 9) / 9 = 5.
    @Test("one of ten gives up: p50 5.5 s, p90 and p99 never; among successes p99 8.92 s, mean 5 s", arguments: [false, true])
    func oneGivesUp(allEvents: Bool) {
        let sc = Scenarios.make(
            clients: 10, arrival: .burst(at: 0), timeout: 9.5, capacity: 1, policy: Scenarios.noRetries, horizon: 100)
        let r = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: allEvents)
        let s = r.summary
        #expect(r.invariantViolation == nil)
        #expect(s.operations == 10 && s.succeeded == 9 && s.gaveUp == 1 && s.unfinished == 0)
        #expect(s.ttsP50 == 5.5)
        #expect(s.ttsP90 == .infinity && s.ttsP99 == .infinity && s.ttsP999 == .infinity)
        #expect(s.ttsMax == .infinity && s.ttsMean == .infinity)
        #expect(s.ttsSuccessP50 == 5 && s.ttsSuccessMax == 9 && s.ttsSuccessMean == 5)
        #expect(abs(s.ttsSuccessP90 - 8.2) < 1e-9)
        #expect(abs(s.ttsSuccessP99 - 8.92) < 1e-9)
        #expect(s.unfinishedFraction == 0)
    }

    /// The same ten clients without a timeout and a 9.5 s horizon: clients 0…8 succeed after
    /// 1…9 s, client 9 is still in service at the horizon — unfinished, not succeeded. The survival
    /// view is the same as when it gave up (p50 5.5 s, p90 never), unfinished_fraction 1/10.
    @Test("one of ten unfinished at the horizon counts as never, like one that gave up", arguments: [false, true])
    func oneUnfinished(allEvents: Bool) {
        let sc = Scenarios.make(
            clients: 10, arrival: .burst(at: 0), timeout: nil, capacity: 1, policy: Scenarios.noRetries, horizon: 9.5)
        let s = Simulator.run(sc, replication: 0, checkInvariants: true, allEvents: allEvents).summary
        #expect(s.operations == 10 && s.succeeded == 9 && s.gaveUp == 0 && s.unfinished == 1)
        #expect(s.unfinishedFraction == 0.1)
        #expect(s.ttsP50 == 5.5 && s.ttsP90 == .infinity && s.ttsP99 == .infinity && s.ttsMean == .infinity)
        #expect(abs(s.ttsSuccessP99 - 8.92) < 1e-9 && s.ttsSuccessMean == 5)
    }

    /// Every operation succeeds: the survival view is the success view, value for value. Ten clients,
    /// no timeout, horizon 100 s: 1…10 s; p50 → h 4.5 → 5.5, p99 → h 8.91 → 9 + 0.91 = 9.91, max 10, mean 5.5.
    @Test("nothing lost: every survival statistic equals its success-only twin")
    func nothingLost() {
        let sc = Scenarios.make(clients: 10, arrival: .burst(at: 0), timeout: nil, capacity: 1, policy: Scenarios.noRetries, horizon: 100)
        let s = Simulator.run(sc, replication: 0, checkInvariants: true).summary
        #expect(s.succeeded == 10)
        #expect(s.ttsP50 == 5.5 && s.ttsMax == 10 && s.ttsMean == 5.5)
        #expect(abs(s.ttsP99 - 9.91) < 1e-9)
        #expect(
            [s.ttsMean, s.ttsP50, s.ttsP90, s.ttsP99, s.ttsP999, s.ttsMax]
                == [s.ttsSuccessMean, s.ttsSuccessP50, s.ttsSuccessP90, s.ttsSuccessP99, s.ttsSuccessP999, s.ttsSuccessMax])
    }

    /// The first trace with a trigger: a capacity "disturbance" from 0 to 1 ms that leaves capacity
    /// at 100% (so every time is as above) makes t = 0 the incident's start. The tenth operation
    /// times out at 9.5 s (bucket 9), so clients are healthy from bucket 10 and the incident window
    /// is buckets 0–9, where all ten operations started: over all ten, p50 5.5 s, p99 never; among
    /// the nine successes p50 5 s, p99 8.92 s; one of ten gave up.
    @Test("the incident's percentiles count every operation that started in it too")
    func incidentWindow() {
        var sc = Scenarios.make(
            clients: 10, arrival: .burst(at: 0), timeout: 9.5, capacity: 1, policy: Scenarios.noRetries, horizon: 100)
        sc.server.profile = CapacityProfile(segments: [.init(start: 0, end: Scenarios.ns(0.001), from: 1, to: 1, shape: .constant)])
        let s = Simulator.run(sc, replication: 0, checkInvariants: true).summary
        #expect(s.succeeded == 9 && s.gaveUp == 1)
        #expect(s.incidentGaveUpFraction == 0.1)
        #expect(s.incidentTTSP50 == 5.5 && s.incidentTTSP99 == .infinity)
        #expect(s.incidentTTSSuccessP50 == 5 && abs(s.incidentTTSSuccessP99 - 8.92) < 1e-9)
    }

    /// Two populations of five, one worker at 1 s per request (FIFO). "patient" starts at 0 with no
    /// timeout: served 0–1, …, 4–5 s, times 1…5 s. "hasty" starts at 0.5 s with a 4 s timeout: it
    /// waits behind all five and times out at 4.5 s, one attempt each: all five give up.
    /// patient: p50 → h = 4·0.5 = 2 → 3 s; p99 → h 3.96 → 4 + 0.96 = 4.96 s (nothing lost: the same
    /// among successes). hasty: never at every level, undefined among successes. The fleet: ten
    /// operations, five successes at 1…5 s: p50 → h 4.5 weighs x[5] = ∞ → never; among successes 3 s.
    @Test("per population: one that loses everything is never, the other keeps its own times")
    func populations() {
        var sc = Scenarios.make(clients: 10, arrival: .burst(at: 0), timeout: nil, capacity: 1, policy: Scenarios.noRetries, horizon: 100)
        sc.populations = [
            Scenario.Population(name: "patient", clients: .init(count: 5, arrival: .burst(at: 0), timeout: nil), policy: Scenarios.noRetries),
            Scenario.Population(
                name: "hasty", clients: .init(count: 5, arrival: .burst(at: Scenarios.ns(0.5)), timeout: Scenarios.ns(4)),
                policy: Scenarios.noRetries)
        ]
        let r = Simulator.run(sc, replication: 0, checkInvariants: true)
        #expect(r.invariantViolation == nil)
        let patient = r.populations[0]
        let hasty = r.populations[1]
        #expect(patient.succeeded == 5 && hasty.succeeded == 0 && hasty.gaveUp == 5)
        #expect(patient.ttsP50 == 3 && abs(patient.ttsP99 - 4.96) < 1e-9)
        #expect(patient.ttsSuccessP50 == 3 && abs(patient.ttsSuccessP99 - 4.96) < 1e-9)
        #expect(hasty.ttsP50 == .infinity && hasty.ttsP99 == .infinity)
        #expect(hasty.ttsSuccessP50.isNaN && hasty.ttsSuccessP99.isNaN)
        #expect(r.summary.ttsP50 == .infinity && r.summary.ttsSuccessP50 == 3)
    }
}
