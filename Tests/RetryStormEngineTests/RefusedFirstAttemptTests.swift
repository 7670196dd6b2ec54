import RetryPolicy
import RetryStormEngine
import Testing

/// A guard's refusal counts in `retries_refused` only when it refuses a retry: an operation whose
/// first attempt a guard turns away lost no retry (`Recorder.attemptRefused`, shared by the
/// clients and the edges; scripts/mutate.sh's `refused-retry` mutant counts every refusal).
@Suite(.timeLimit(.engine), .endsRunPastTimeLimit)
struct RefusedFirstAttemptTests {
    typealias F = FleetHedgingTests

    /// One client starts an operation every 250 ms for 2 s (8 operations, at 0, 0.25 … 1.75 s),
    /// one attempt each, behind a concurrency limit of one attempt in flight that refuses when
    /// full; the server answers each after exactly 0.8 s (one worker at 1.25/s). The attempts at 0
    /// and 1 s go out (the slot is free again at 0.8 s); the 6 others find it taken and are
    /// refused before they are sent: 2 succeed, 6 give up (a full limit is a give-up, as the
    /// operation could not run, `StopReason.isGiveUp`), held_back 6, and no retry is refused,
    /// since none was asked for.
    @Test("a concurrency limit refusing first attempts refuses no retry")
    func firstAttemptsAreNoRetries() {
        var sc = F.scenario(
            hedging: nil, clients: 1, arrival: .constant(ratePerClient: 4, start: 0, until: Scenarios.ns(2)), capacity: 1.25,
            workers: 1, horizon: 10)
        sc.policy.concurrency = ConcurrencyLimit(maxInFlight: 1, whenFull: .reject)
        let m = F.run(sc).summary
        #expect(m.operations == 8 && m.succeeded == 2 && m.gaveUp == 6 && m.blocked == 0)
        #expect(m.heldBack == 6 && m.retries == 0 && m.retriesRefused == 0)
    }
}
