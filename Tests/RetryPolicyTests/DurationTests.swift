import RetryPolicy
import TestSupport
import Testing

/// The `Duration` forms of the library's time parameters: the presets written with `Duration`s
/// are the presets, and the state machine driven with `Duration`s makes the same decisions.
struct DurationTests {
    @Test("Duration → nanoseconds: truncated toward zero below a nanosecond, negative kept, saturating")
    func conversion() {
        #expect(Time.nanoseconds(.milliseconds(250)) == 250 * ms)
        #expect(Time.nanoseconds(Duration(secondsComponent: 1, attosecondsComponent: 999_999_999)) == second)
        #expect(Time.nanoseconds(Duration(secondsComponent: 0, attosecondsComponent: 1_999_999_999)) == 1)
        #expect(Time.nanoseconds(.milliseconds(-1500)) == -1500 * ms)
        #expect(Time.nanoseconds(.seconds(Int64.max)) == .max)
        #expect(Time.nanoseconds(.seconds(Int64.min)) == .min)
    }

    /// AWS SDKs 2026 standard mode (botocore `retries/standard.py`; aws-sdk-go-v2
    /// `aws/retry/retry2026_test.go`): 3 attempts, full jitter over 50 ms × 2^(n−1) (1 s for
    /// throttling), cap 20 s, `x-amz-retry-after` clamped to [t, t + 5 s], quota 500 / 14 / 5.
    @Test("the AWS 2026 preset written with Durations is the preset")
    func aws2026() {
        let p = RetryPolicy(
            classifier: .aws, backoff: Backoff(kind: .exponential, base: .milliseconds(50), max: .seconds(20), jitter: .full),
            throttlingBase: .seconds(1), maxAttempts: 3, serverHints: ServerHintPolicy(mode: .clampAboveBackoff(extra: .seconds(5))),
            budget: .aws(.standard2026), onRestart: .reset)
        #expect(p == .awsStandard2026)
    }

    /// The offline-first chapter's policy: 1 s × 2^(n−1) up to 5 min, 10 attempts within 24 h, its
    /// breaker (last 20 calls, open 30 s → 60 s → 2 min), 4 attempts per host (2 background).
    @Test("the offline-first preset written with Durations is the preset")
    func offlineFirst() {
        let p = RetryPolicy(
            classifier: .offlineFirst, backoff: Backoff(kind: .exponential, base: .seconds(1), max: .seconds(300), jitter: .full),
            maxAttempts: 10, maxElapsed: .seconds(24 * 3600), serverHints: .atLeast, budget: .perRun(retries: 100),
            breaker: CircuitBreaker(
                window: .count(20), failureRateThreshold: 0.5, comparison: .above, minimumCalls: 1, minimumFailures: 5,
                openDuration: Backoff(kind: .exponential, base: .seconds(30), max: .seconds(120)), halfOpenProbes: 1, whenOpen: .wait),
            concurrency: ConcurrencyLimit(maxInFlight: 4, backgroundMaxInFlight: 2),
            ambiguity: AmbiguityPolicy(idempotency: .key, reconcile: true, reconcileDelay: .seconds(0)))
        #expect(p == .offlineFirst)
    }

    /// Polly v8 `CircuitBreakerStrategyOptions` (`CircuitBreakerConstants.cs`): 30 s sampling,
    /// break 5 s; Finagle `RetryBudget()` (`RetryBudget.scala`): ttl 10 s; the SRE book's adaptive
    /// throttling (ch. 21): 2 minutes; RudderStack's mobile SDKs: a 30-minute cool-off.
    @Test("time windows, open durations, ttl and cool-off written with Durations are the presets'")
    func parts() {
        var polly = CircuitBreaker.polly
        polly.window = .time(.seconds(30))
        polly.openDuration = CircuitBreaker.fixed(.seconds(5))
        #expect(polly == .polly)
        #expect(
            FinagleRetryBudget(ttl: .seconds(10), minRetriesPerSecond: 10, percentCanRetry: 0.2, maxRetriesPerRequest: 0.2)
                == .finagleDefault)
        #expect(AdaptiveThrottle(window: .seconds(120)) == .sreBook)
        let rebuilt = RetryPolicy(
            classifier: .rudderstack,
            backoff: Backoff(
                kind: .exponential, base: .seconds(3), max: .seconds(3600),
                jitter: .additive(1)),
            maxAttempts: 6, coolOff: .seconds(1800), serverHints: .ignore, maxAuthRefreshes: 0,
            ambiguity: .blind, onRestart: .reset)
        #expect(rebuilt == .rudderstackMobile)
        #expect(ServerHintPolicy(mode: .replace, ceiling: .seconds(21_600)) == ServerHintPolicy(mode: .replace))
        #expect(
            FailureClass(kind: .throttled, retryable: true, minDelay: .seconds(2), serverHint: .seconds(2))
                == FailureClass(kind: .throttled, retryable: true, minDelay: 2 * second, serverHint: 2 * second))
    }

    /// `x-amz-retry-after` against a 50 ms backoff at r → 1 (aws-sdk-go-v2 `retry2026_test.go`):
    /// 1500 → 1500 ms, 10000 → 5050 ms — here from an instant given as a Duration, 10 s after the epoch.
    @Test(
        "the state machine driven with Durations: AWS 2026 x-amz-retry-after 1500 → 1500 ms, 10000 → 5050 ms after now",
        arguments: [("1500", 1500), ("10000", 5050)] as [(String, Int64)])
    func stateMachine(header: String, expectedMs: Int64) {
        let p = RetryPolicy.awsStandard2026
        var host = HostGuard(policy: p)
        var record = OperationRecord()
        var random = FixedUniformSource(1)
        #expect(p.admit(record: &record, host: &host, now: .seconds(10), random: &random) == .proceed)
        p.attemptStarted(record: &record, host: &host, now: .seconds(10))
        #expect(record.firstAttemptAt == 10 * second)
        let error = NormalizedError.http(503, retryAfter: .milliseconds(Int64(header)!))
        let d = p.decide(after: error, record: &record, host: &host, now: .seconds(10), random: &random)
        #expect(d == .retry(at: 10 * second + expectedMs * ms))
    }

    @Test("the other Duration parameters: Retry-After against a Duration clock, a record's shift, a host's instants")
    func others() async {
        // RFC 9110 §5.6.7's example date, Sun, 06 Nov 1994 08:49:37 GMT, is Unix time 784111777.
        #expect(RetryAfterHeader.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: .seconds(784_111_767)) == 10 * second)
        #expect(RetryAfterHeader.resetTimestamp("784111777", now: .seconds(784_111_777 - 3)) == 3 * second)
        var record = OperationRecord()
        record.nextAttemptAt = 5 * second
        record.shift(by: .milliseconds(-1500))
        #expect(record.nextAttemptAt == 3500 * ms)
        #expect(AmbiguityPolicy(reconcile: true, reconcileDelay: .milliseconds(250)).reconcileDelay == 250 * ms)
        let host = RetryHost(policy: .offlineFirst, clock: ManualClock())
        #expect(host.instant(.milliseconds(1500)) == host.instant(1500 * ms))
        #expect(host.instant(.milliseconds(1500)).offset == .milliseconds(1500))
    }
}
