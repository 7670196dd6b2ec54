import RetryPolicy
import Testing

/// The decision after a failure: attempts, elapsed time, server hints, classification.
struct DecideTests {
    static let s: Int64 = 1_000_000_000

    func policy(
        attempts: Int = 3, jitter: Jitter = .none, hints: ServerHintPolicy = .atLeast,
        maxElapsed: Int64? = nil, coolOff: Int64? = nil
    ) -> RetryPolicy {
        RetryPolicy(
            backoff: Backoff(kind: .exponential, base: Self.s, max: 60 * Self.s, jitter: jitter),
            maxAttempts: attempts, maxElapsed: maxElapsed, coolOff: coolOff, serverHints: hints)
    }

    /// Runs attempts that all fail with `error`, returning each decision.
    func trace(_ p: RetryPolicy, _ error: NormalizedError, failures: Int) -> [RetryDecision] {
        var record = OperationRecord()
        var host = HostGuard(policy: p)
        var random = FixedUniformSource(0.5)
        var now: Int64 = 0
        var out: [RetryDecision] = []
        for _ in 0..<failures {
            p.attemptStarted(record: &record, host: &host, now: now)
            let d = p.decide(after: error, record: &record, host: &host, now: now, random: &random)
            out.append(d)
            guard case .retry(let at) = d else { break }
            now = at
        }
        return out
    }

    @Test("max_attempts 3: two retries at +1 s and +2 s, then attemptsExhausted")
    func attemptsExhausted() {
        let d = trace(policy(), .http(503), failures: 5)
        #expect(d == [.retry(at: Self.s), .retry(at: 3 * Self.s), .stop(.attemptsExhausted)])
        #expect(StopReason.attemptsExhausted.isGiveUp)
    }

    @Test("a timeout is retried; a 404 is blocked at once and needs a fix")
    func classification() {
        #expect(trace(policy(), .timedOut(.response), failures: 1) == [.retry(at: Self.s)])
        #expect(trace(policy(), .http(404), failures: 1) == [.stop(.needsFix)])
        #expect(!StopReason.needsFix.isGiveUp)
    }

    @Test("Retry-After 10 s overrides a 1 s backoff (never sooner than the server asked)")
    func retryAfterAtLeast() {
        #expect(trace(policy(), .http(429, retryAfter: 10 * Self.s), failures: 1) == [.retry(at: 10 * Self.s)])
        // A hint shorter than the backoff does not shorten it.
        #expect(trace(policy(), .http(503, retryAfter: Self.s / 10), failures: 1) == [.retry(at: Self.s)])
    }

    @Test("max_elapsed 2 s: the second retry would start at 3 s, so it stops")
    func elapsed() {
        let d = trace(policy(attempts: 10, maxElapsed: 2 * Self.s), .http(500), failures: 5)
        #expect(d == [.retry(at: Self.s), .stop(.elapsedExceeded)])
    }

    @Test("cool-off: after max_attempts failures wait the cool-off, then start a new cycle at base")
    func coolOff() {
        let d = trace(policy(attempts: 2, coolOff: 1800 * Self.s), .http(500), failures: 4)
        // fail@0 → +1 s; fail@1 → cycle exhausted → 1801 s; fail@1801 → +1 s (backoff restarted).
        #expect(d == [.retry(at: Self.s), .retry(at: 1801 * Self.s), .retry(at: 1802 * Self.s), .retry(at: 1801 * Self.s + 1800 * Self.s + Self.s)])
    }
}
