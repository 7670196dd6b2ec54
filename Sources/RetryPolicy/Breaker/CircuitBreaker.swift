/// A per-host (or per-endpoint) circuit breaker: closed → open → half-open → closed, as in
/// resilience4j's `CircuitBreakerStateMachine`, Polly v8's `CircuitStateController`, Finagle's
/// failure accrual and the offline-first chapter's per-host breaker.
///
/// - Closed: outcomes fill the ``window``; the breaker trips when the failure rate reaches the
///   threshold with enough calls (and failures) recorded, or after N consecutive failures.
/// - Open: attempts are refused until `openUntil`; the ``openDuration`` is a backoff over the
///   number of consecutive trips (fixed, growing 30 s → 60 s → 2 min, or Finagle's jittered).
/// - Half-open: the first attempt after `openUntil` moves it here (lazily, as resilience4j and
///   Polly do); exactly ``halfOpenProbes`` attempts go through; once they all ended it closes if
///   their failure rate is under the threshold, else it opens again for a longer time. In
///   consecutive mode the first failed probe reopens it.
///
/// Only outcomes of attempts admitted in the current state count (an attempt admitted while
/// closed that ends after the breaker opened is ignored). Failures of the kinds in ``records`` count
/// as failures; other answers from the host count as successes; local failures are not recorded.
///
/// The configuration is an immutable value in the ``RetryPolicy``; the state lives in each
/// client's ``HostGuard/breaker`` (a ``CircuitBreakerState``), which the policy's `admit` and
/// `decide` update, so an app using ``RetryPolicy`` never calls the breaker itself.
///
/// ```swift
/// // Trip when ≥ 50 % of the last 50 calls failed (once 20 are recorded); open 10 s, then 20 s, 40 s …
/// // capped at 5 min; 3 probes; attempts meeting an open breaker fail fast.
/// let breaker = CircuitBreaker(
///     window: .count(50), failureRateThreshold: 0.5, minimumCalls: 20,
///     openDuration: Backoff(kind: .exponential, base: .seconds(10), max: .seconds(300)),
///     halfOpenProbes: 3, whenOpen: .reject)
/// var policy = RetryPolicy.offlineFirst
/// policy.breaker = breaker
/// ```
public struct CircuitBreaker: Sendable, Hashable, Codable {
    /// What the trip rule looks at.
    public enum Window: Sendable, Hashable {
        /// The last N outcomes (resilience4j COUNT_BASED; the chapter's "last 20 requests"). N ≤ 256.
        case count(Int)
        /// The outcomes of the last duration, in 10 buckets (Polly's `SamplingDuration`,
        /// resilience4j TIME_BASED approximated with 10 buckets instead of one per second).
        case time(Nanoseconds)
        /// N failures in a row (Finagle `consecutiveFailures(5, …)`, Envoy `consecutive_5xx`).
        case consecutive(Int)

        /// The outcomes of the last `d` (truncated to whole nanoseconds), in 10 buckets.
        @_disfavoredOverload
        public static func time(_ d: Duration) -> Window { .time(Time.nanoseconds(d)) }
    }

    /// How the failure rate compares with the threshold.
    public enum Comparison: UInt8, Sendable, Hashable, Codable {
        /// `rate ≥ threshold` (resilience4j, Polly).
        case atLeast
        /// `rate > threshold` (the offline-first chapter: "> 50 %").
        case above
    }

    /// What an attempt meets while the breaker is open (or half-open with every probe out).
    public enum WhenOpen: UInt8, Sendable, Hashable, Codable {
        /// It waits until the breaker lets attempts through again: `nextAttemptAt = openUntil`
        /// (the offline-first chapter's scheduler).
        case wait
        /// It fails locally without being sent, and the retry policy treats that like any failure:
        /// backoff, attempts, budget (resilience4j's `CallNotPermittedException` and Polly's
        /// `BrokenCircuitException` inside a retry).
        case failAttempt
        /// The operation fails at once (Finagle: a dead endpoint fails requests fast).
        case reject
    }

    /// What the trip rule looks at: the last N outcomes, a time window, or N failures in a row.
    public var window: Window
    /// The failure rate that trips it, in (0, 1].
    public var failureRateThreshold: Double
    /// Whether the rate trips the breaker at the threshold (`atLeast`, the default) or only above it.
    public var comparison: Comparison
    /// Calls the window must hold before the rate counts (resilience4j `minimumNumberOfCalls`,
    /// capped at a count window's size; Polly `MinimumThroughput`).
    public var minimumCalls: Int
    /// Failures the window must hold before the rate counts (the chapter's "at least N failures").
    public var minimumFailures: Int
    /// Evaluate after successes too (resilience4j evaluates after every call; Polly only on failures).
    public var evaluateOnSuccess: Bool
    /// How long it stays open after trip `n` (n = 1 for the first, +1 for each reopening from
    /// half-open, back to 1 once it closes).
    public var openDuration: Backoff
    /// Attempts let through while half-open (resilience4j 10, Polly and Finagle 1).
    public var halfOpenProbes: Int
    /// What an attempt meets while the breaker is open: it waits (the default), fails as an
    /// attempt, or fails the operation.
    public var whenOpen: WhenOpen
    /// The failure kinds that count against the host.
    public var records: FailureKindSet

    /// A breaker; the defaults trip at a failure rate ≥ 50 % from the first recorded call, evaluate
    /// after every outcome, let one probe through, make attempts wait while open, and count
    /// ``FailureKindSet/hostFailures``.
    ///
    /// - Parameters:
    ///   - window: the outcomes the rule looks at (a count window holds at most 256).
    ///   - failureRateThreshold: the failure rate that trips it, in (0, 1]; ignored by `consecutive`.
    ///   - comparison: `rate ≥ threshold` or `rate > threshold`.
    ///   - minimumCalls: calls recorded before the rate counts (capped at a count window's size).
    ///   - minimumFailures: failures recorded before the rate counts.
    ///   - evaluateOnSuccess: apply the rule after successes too, not only after failures.
    ///   - openDuration: the open time after trip n, as a backoff over n (``fixed(_:)`` for a constant).
    ///   - halfOpenProbes: attempts let through while half-open; at least 1 (smaller values become 1).
    ///   - whenOpen: what an attempt meets while the breaker is open.
    ///   - records: the failure kinds that count against the host.
    public init(
        window: Window, failureRateThreshold: Double = 0.5, comparison: Comparison = .atLeast,
        minimumCalls: Int = 1, minimumFailures: Int = 0, evaluateOnSuccess: Bool = true,
        openDuration: Backoff, halfOpenProbes: Int = 1, whenOpen: WhenOpen = .wait,
        records: FailureKindSet = .hostFailures
    ) {
        self.window = window
        self.failureRateThreshold = failureRateThreshold
        self.comparison = comparison
        self.minimumCalls = minimumCalls
        self.minimumFailures = minimumFailures
        self.evaluateOnSuccess = evaluateOnSuccess
        self.openDuration = openDuration
        self.halfOpenProbes = Swift.max(1, halfOpenProbes)
        self.whenOpen = whenOpen
        self.records = records
    }

    /// A fixed open duration.
    public static func fixed(_ d: Nanoseconds) -> Backoff { Backoff(kind: .constant, base: d, max: d) }

    /// A fixed open duration, as a `Duration` (truncated to whole nanoseconds).
    @_disfavoredOverload
    public static func fixed(_ d: Duration) -> Backoff { fixed(Time.nanoseconds(d)) }

    /// Whether `failures` of `calls` trip the breaker under the rate rule.
    @inlinable public func trips(calls: Int, failures: Int) -> Bool {
        let minimum: Int
        if case .count(let size) = window { minimum = Swift.min(minimumCalls, size) } else { minimum = minimumCalls }
        guard calls > 0, calls >= minimum, failures >= minimumFailures else { return false }
        let rate = Double(failures) / Double(calls)
        return comparison == .atLeast ? rate >= failureRateThreshold : rate > failureRateThreshold
    }
}

extension CircuitBreaker {
    /// resilience4j `CircuitBreakerConfig` defaults: COUNT_BASED window of 100, minimum 100 calls,
    /// ≥ 50 %, open 60 s, 10 calls half-open; every exception recorded. Inside a resilience4j
    /// `Retry`, the `CallNotPermittedException` of an open breaker is one more failed attempt.
    public static let resilience4j = CircuitBreaker(
        window: .count(100), failureRateThreshold: 0.5, minimumCalls: 100,
        openDuration: fixed(60 * Time.nanosecondsPerSecond), halfOpenProbes: 10, whenOpen: .failAttempt,
        records: .allFailures)

    /// Polly v8 `CircuitBreakerStrategyOptions` defaults: `FailureRatio` 0.1, `MinimumThroughput`
    /// 100, `SamplingDuration` 30 s (10 buckets), `BreakDuration` 5 s, one probe; evaluated on
    /// failures only; `ShouldHandle` = every exception.
    public static let polly = CircuitBreaker(
        window: .time(30 * Time.nanosecondsPerSecond), failureRateThreshold: 0.1, minimumCalls: 100,
        evaluateOnSuccess: false, openDuration: fixed(5 * Time.nanosecondsPerSecond), halfOpenProbes: 1,
        whenOpen: .failAttempt, records: .allFailures)

    /// Finagle failure accrual: `consecutiveFailures(5, markDeadFor)` with
    /// `markDeadFor = Backoff.equalJittered(5 s, 300 s)` (5 s, then U[5, 10), U[10, 20) … ≤ 300 s),
    /// one probe; a dead endpoint fails requests fast.
    public static let finagle = CircuitBreaker(
        window: .consecutive(5), failureRateThreshold: 1,
        openDuration: Backoff(
            kind: .exponential, base: 5 * Time.nanosecondsPerSecond, max: 300 * Time.nanosecondsPerSecond,
            jitter: .equal, capAfterJitter: true, firstRetry: .unjittered),
        halfOpenProbes: 1, whenOpen: .reject)

    /// The offline-first chapter's per-host breaker: the last 20 requests, open when more than 50 %
    /// failed with at least 5 failures; open 30 s, then 60 s, then 2 min (capped); one probe;
    /// operations wait for it (`nextAttemptAt = openUntil`).
    public static let offlineFirst = CircuitBreaker(
        window: .count(20), failureRateThreshold: 0.5, comparison: .above, minimumCalls: 1, minimumFailures: 5,
        openDuration: Backoff(kind: .exponential, base: 30 * Time.nanosecondsPerSecond, max: 120 * Time.nanosecondsPerSecond),
        halfOpenProbes: 1, whenOpen: .wait)
}
