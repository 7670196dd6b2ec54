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
}
