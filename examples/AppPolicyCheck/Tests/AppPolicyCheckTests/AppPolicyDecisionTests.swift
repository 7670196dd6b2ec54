import AppRetry
import RetryPolicy
import Testing

/// The app's own policies decide as the code they come from: the seed's NetworkClient and the
/// "Retry!" wrapper, driven through ClientPolicy's calls as the simulator drives them.
struct AppPolicyDecisionTests {
    static let s: Nanoseconds = 1_000_000_000

    /// Starts an attempt at `now` and fails it with `failure`: the decision.
    static func fail(
        _ policy: some ClientPolicy, _ record: inout OperationRecord, _ failure: NormalizedError,
        at now: Nanoseconds
    ) -> RetryDecision {
        var host = HostGuard()
        var random = FixedUniformSource(0.5)
        #expect(policy.admit(record: &record, host: &host, now: now, random: &random) == .proceed)
        policy.attemptStarted(record: &record, host: &host, now: now)
        return policy.decide(after: failure, record: &record, host: &host, now: now, random: &random)
    }

    @Test("seed NetworkClient: a 404 is retried at once, three times, then it stops (4 attempts, as the article's log)")
    func seedRetries404() {
        var record = OperationRecord()
        let p = SeedNetworkClientPolicy()
        let decisions = (0..<4).map { Self.fail(p, &record, .http(404), at: Int64($0) * Self.s) }
        #expect(decisions == [.retry(at: 0), .retry(at: Self.s), .retry(at: 2 * Self.s), .stop(.attemptsExhausted)])
        #expect(record.attemptCount == 4 && record.phase == .stopped(.attemptsExhausted))
    }

    @Test("seed NetworkClient: a timeout (URLSession error) ends the request without a retry")
    func seedStopsOnTransportError() {
        var record = OperationRecord()
        #expect(Self.fail(SeedNetworkClientPolicy(), &record, NormalizedError(timeout: .response), at: 5 * Self.s) == .stop(.nonRetryable))
        #expect(record.attemptCount == 1 && record.nextAttemptAt == nil)
    }

    @Test("Retry!: waits the server's Retry-After (2 s after the 503), retries anything else at once, three retries in all")
    func retryBangHonoursServerDelay() {
        var record = OperationRecord()
        let p = RetryBangPolicy()
        #expect(Self.fail(p, &record, .http(503, retryAfter: 2 * Self.s), at: 10 * Self.s) == .retry(at: 12 * Self.s))
        #expect(record.phase == .willRetry && record.nextAttemptAt == 12 * Self.s)
        #expect(Self.fail(p, &record, NormalizedError(timeout: .response), at: 14 * Self.s) == .retry(at: 14 * Self.s))
        #expect(Self.fail(p, &record, .http(400), at: 15 * Self.s) == .retry(at: 15 * Self.s))
        #expect(Self.fail(p, &record, .http(503, retryAfter: 2 * Self.s), at: 16 * Self.s) == .stop(.attemptsExhausted))
    }
}
