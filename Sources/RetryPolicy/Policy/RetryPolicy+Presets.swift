/// The defaults of thirteen production libraries and modes, as plain values an app can use as they are or
/// adjust, and the simulator selects with `policy.preset`. Each doc comment names the library's
/// own sources and the defaults it follows; docs/policy-library.md (Presets) has the table and the
/// choices made where a library leaves something to the caller.
extension RetryPolicy {
    /// "No limit" for ``maxAttempts``: libraries that retry until their elapsed time or budget
    /// runs out (cenkalti/backoff v4, Finagle's requeues).
    public static let unlimitedAttempts = Int(Int32.max)

    static let s = Time.nanosecondsPerSecond
    static let ms = Int64(1_000_000)

    /// AWS SDKs, standard mode, pre-2026 (botocore `botocore/retries/standard.py`, `quota.py`;
    /// aws-sdk-go-v2 `aws/retry/standard.go`): 3 attempts; `r × min(2^(n−1), 20 s)`; retry quota
    /// 500, cost 5, 10 after a timeout, +1 / refund on success; HTTP Retry-After ignored.
    public static let awsStandard = RetryPolicy(
        classifier: .aws, backoff: Backoff(kind: .exponential, base: s, max: 20 * s, jitter: .full),
        maxAttempts: 3, serverHints: .ignore, budget: .aws(.standard), onRestart: .reset)

    /// AWS SDKs, standard mode, 2026 behaviour (`AWS_NEW_RETRIES_2026=true`; botocore
    /// `botocore/retries/standard.py`, aws-sdk-go-v2 `aws/retry/jitter_backoff.go`): 3 attempts;
    /// `r × min(x · 2^(n−1), 20 s)` with x = 50 ms, 1 s for throttling; the server's hint
    /// (`x-amz-retry-after`) clamped to [t, t + 5 s]; quota 500, cost 14, 5 for throttling.
    public static let awsStandard2026 = RetryPolicy(
        classifier: .aws, backoff: Backoff(kind: .exponential, base: 50 * ms, max: 20 * s, jitter: .full),
        throttlingBase: s, maxAttempts: 3, serverHints: ServerHintPolicy(mode: .clampAboveBackoff(extra: 5 * s)),
        budget: .aws(.standard2026), onRestart: .reset)

    /// The AWS SDK for Java 2.x's default until the 2026 update: legacy mode
    /// (`DefaultRetryStrategy.Legacy` in `core/retries`; the SDK's "Announcement: Updated default
    /// retry behavior (2026)", aws/aws-sdk-java-v2#6987, table "Before"): 4 attempts;
    /// `ExponentialDelayWithJitter`, retry n waits U[0, min(100 ms · 2^(n−1), 20 s)), 500 ms for
    /// throttling (Java draws half jitter there, the preset full); the larger of that and the
    /// server's Retry-After, uncapped (`BaseRetryStrategy.computeBackoff`); quota 500, 5 per retry, 0 after
    /// throttling (``AWSRetryQuota/javaLegacy``). After the update Java runs ``awsStandard2026``.
    public static let awsJavaLegacy = RetryPolicy(
        classifier: .aws, backoff: Backoff(kind: .exponential, base: 100 * ms, max: 20 * s, jitter: .full),
        throttlingBase: 500 * ms, maxAttempts: 4, serverHints: ServerHintPolicy(mode: .atLeast, ceiling: .max),
        budget: .aws(.javaLegacy), onRestart: .reset)

    /// gRPC A6 with the proposal's example policy (`grpc/proposal` `A6-client-retries.md`; grpc-go
    /// `stream.go`, `clientconn.go`): 4 attempts; initial 0.1 s, ×2, max 1 s, ±20 %; UNAVAILABLE
    /// retried; pushback replaces the delay exactly and resets the exponent, a negative pushback
    /// stops; retry throttling maxTokens 10, tokenRatio 0.1.
    public static let grpc = RetryPolicy(
        classifier: .grpcUnavailable,
        backoff: Backoff(kind: .exponential, base: 100 * ms, max: s, jitter: .proportional(0.2)),
        maxAttempts: 4,
        serverHints: ServerHintPolicy(mode: .replaceAndReset, ceiling: .max, negativeMeansStop: true),
        budget: .grpc(.a6Example), ambiguity: .blind, onRestart: .reset)

    /// Finagle's default client (`finagle-core` `service/Retries.scala`, `RequeueFilter.scala`,
    /// `RetryBudget.scala`, `liveness/FailureAccrualFactory.scala`): requeues only (never-written
    /// failures and NACKs), immediately (`Backoff.constant(0)`), through `RetryBudget()` (10 s,
    /// 10/s, 20 %) and at most `ceil(0.2 × balance)` per request; failure accrual after 5
    /// consecutive failures, dead for `equalJittered(5 s, 300 s)`, one probe, failing fast while
    /// dead.
    public static let finagle = RetryPolicy(
        classifier: .finagleRequeues, backoff: .immediate, maxAttempts: unlimitedAttempts, serverHints: .ignore,
        maxAuthRefreshes: 0, budget: .ratio(.finagleDefault), breaker: .finagle, ambiguity: .blind, onRestart: .reset)

    /// Envoy's router with `retry_on: 5xx` (`route_components.proto`, `circuit_breaker.proto`,
    /// `source/common/common/backoff_strategy.cc`): `num_retries` 1 (2 attempts); full jitter over
    /// 25 ms × 2^(n−1), max 250 ms (the code, not the docs' formula); route timeout 15 s;
    /// `max_retries` 3 concurrent retries; `max_requests` 1024 per host, overflow fails at once.
    public static let envoy = RetryPolicy(
        classifier: .envoy5xx, backoff: Backoff(kind: .exponential, base: 25 * ms, max: 250 * ms, jitter: .full),
        maxAttempts: 2, maxElapsed: 15 * s, serverHints: .ignore, maxAuthRefreshes: 0, budget: .envoy(.maxRetries),
        concurrency: ConcurrencyLimit(maxInFlight: 1024, whenFull: .reject), ambiguity: .blind, onRestart: .reset)

    /// resilience4j `RetryConfig` and `CircuitBreakerConfig` defaults (`RetryConfig.java`,
    /// `CircuitBreakerConfig.java`): 3 attempts, a fixed 500 ms wait, every exception retried;
    /// breaker COUNT_BASED 100, minimum 100, ≥ 50 %, open 60 s, 10 calls half-open (an open
    /// breaker's `CallNotPermittedException` is a failed attempt).
    public static let resilience4j = RetryPolicy(
        classifier: .everything, backoff: Backoff(kind: .constant, base: 500 * ms, max: 500 * ms),
        maxAttempts: 3, serverHints: .ignore, maxAuthRefreshes: 0, breaker: .resilience4j, ambiguity: .blind, onRestart: .reset)

    /// Polly v8 retry and circuit-breaker defaults (`src/Polly.Core/Retry/RetryConstants.cs`,
    /// `CircuitBreaker/CircuitBreakerConstants.cs`): `MaxRetryAttempts` 3 (4 attempts),
    /// Constant 2 s, no jitter, no `MaxDelay`, every exception handled, Retry-After only through a
    /// `DelayGenerator` hook (not set); breaker 10 % of ≥ 100 calls in 30 s (10 buckets), break
    /// 5 s, one probe.
    public static let polly = RetryPolicy(
        classifier: .everything, backoff: Backoff(kind: .constant, base: 2 * s, max: 2 * s),
        maxAttempts: 4, serverHints: .ignore, maxAuthRefreshes: 0, breaker: .polly, ambiguity: .blind, onRestart: .reset)

    /// urllib3 `Retry.DEFAULT` = `Retry(3)` (`src/urllib3/util/retry.py`): 4 attempts;
    /// `backoff_factor` 0 (no wait; the first retry never waits in any case), `backoff_max` 120 s;
    /// Retry-After on 413/429/503 replaces the backoff, capped at 6 h; an idempotent method (the
    /// default `allowed_methods`).
    public static let urllib3 = RetryPolicy(
        classifier: .urllib3,
        backoff: Backoff(kind: .exponential, base: 0, max: 120 * s, firstRetry: .immediate),
        maxAttempts: 4, serverHints: ServerHintPolicy(mode: .replace), maxAuthRefreshes: 0, onRestart: .reset)

    /// cenkalti/backoff v4 `NewExponentialBackOff()` with `Retry` (`exponential.go`, v4.3.0):
    /// 500 ms × 1.5^(n−1), ±50 %, the interval capped at 60 s before jitter, stop once 15 min would
    /// be exceeded, no attempt limit, every non-`Permanent` error retried, no Retry-After.
    public static let cenkalti = RetryPolicy(
        classifier: .everything,
        backoff: Backoff(kind: .exponential, base: 500 * ms, max: 60 * s, multiplier: 1.5, jitter: .proportional(0.5)),
        maxAttempts: unlimitedAttempts, maxElapsed: 15 * 60 * s, serverHints: .ignore, maxAuthRefreshes: 0,
        ambiguity: .blind, onRestart: .reset)

    /// RudderStack's Kotlin and Swift mobile SDKs (`rudder-sdk-kotlin`'s
    /// `ExponentialBackOffPolicy.kt` and `MaxAttemptsWithBackoff.kt`, `rudder-sdk-swift`'s
    /// `Policies/BackoffPolicy`): 3 s × 2^k + U[0, that) for 5 retries, then a 30-minute cool-off
    /// and a new cycle, forever; 400/401/404/413 fatal. The SDKs set no cap; 1 h here is never
    /// reached within a cycle.
    public static let rudderstackMobile = RetryPolicy(
        classifier: .rudderstack,
        backoff: Backoff(kind: .exponential, base: 3 * s, max: 3600 * s, jitter: .additive(1)),
        maxAttempts: 6, coolOff: 30 * 60 * s, serverHints: .ignore, maxAuthRefreshes: 0, ambiguity: .blind, onRestart: .reset)

    /// The naive baseline: a fixed 3 immediate retries on any failure, even 404.
    public static let naiveImmediate = RetryPolicy(
        classifier: .everything, backoff: .immediate, maxAttempts: 4, serverHints: .ignore, maxAuthRefreshes: 0,
        ambiguity: .blind, onRestart: .reset)

    /// The offline-first chapter ("Retries, Exponential Backoff, and Robust Failure Handling"):
    /// its taxonomy (401/403 refresh once, 409 permanent, Retry-After as a minimum); full jitter
    /// over 1 s × 2^(n−1) capped at 5 min (foreground); 10 attempts within 24 h; 100 retries per
    /// run; the per-host breaker (last 20, > 50 % with ≥ 5 failures, 30 s → 60 s → 2 min, one
    /// probe, operations wait); 4 attempts per host at once, 2 for background work; idempotency
    /// keys and status reconciliation for ambiguous writes.
    public static let offlineFirst = RetryPolicy(
        classifier: .offlineFirst,
        backoff: Backoff(kind: .exponential, base: s, max: 300 * s, jitter: .full),
        maxAttempts: 10, maxElapsed: 24 * 3600 * s, serverHints: .atLeast, budget: .perRun(retries: 100),
        breaker: .offlineFirst, concurrency: ConcurrencyLimit(maxInFlight: 4, backgroundMaxInFlight: 2),
        ambiguity: AmbiguityPolicy(idempotency: .key, reconcile: true))

    /// The presets by name, in the order of docs/policy-library.md's table. Only the offline-first
    /// chapter persists its schedule (`nextAttemptAt`); every library keeps its retry state in
    /// memory (RudderStack's SDKs persist batches on disk, not their retry timers), so their
    /// presets restart with `.reset`.
    public static let presets: [(name: String, policy: RetryPolicy)] = [
        ("aws-standard", awsStandard), ("aws-standard-2026", awsStandard2026), ("aws-java-legacy", awsJavaLegacy), ("grpc", grpc),
        ("finagle", finagle),
        ("envoy", envoy), ("resilience4j", resilience4j), ("polly", polly), ("urllib3", urllib3), ("cenkalti", cenkalti),
        ("rudderstack-mobile", rudderstackMobile), ("naive-immediate", naiveImmediate), ("offline-first", offlineFirst)
    ]

    /// The preset called `name`, or nil.
    public static func preset(named name: String) -> RetryPolicy? {
        presets.first { $0.name == name }?.policy
    }
}
