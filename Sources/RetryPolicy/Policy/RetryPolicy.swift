/// A complete retry policy: classification, backoff, caps, server hints, budget, circuit breaker,
/// adaptive throttle, concurrency limit and the handling of ambiguous writes. A plain value: the
/// same one drives an app's ``retrying(_:clock:isolation:operation:)`` executor and the simulator's millions
/// of clients ("what you simulate is what you ship"). ``RetryPolicy/preset(named:)`` gives the
/// defaults of thirteen production libraries and modes.
///
/// The state it acts on lives outside it: per operation in ``OperationRecord``, per client and
/// host in ``HostGuard``. The protocol, for every operation:
///
/// 1. ``admit(record:host:now:random:)`` before every attempt, the first included →
///    ``Admission`` (proceed, wait until T, wait for a slot, or stop);
/// 2. ``attemptStarted(record:host:now:)`` when it is sent;
/// 3. ``succeeded(record:host:now:random:)``, or ``decide(after:record:host:now:random:)`` →
///    ``RetryDecision`` (retry at T, refresh credentials, reconcile, or stop);
/// 4. after ``RetryDecision/reconcile(at:)``: ``reconciled(_:record:host:now:random:)``.
///
/// Budget deposits, withdrawals and refunds, breaker recording and throttle accounting happen
/// inside these calls. ``cancelled(record:host:now:)`` and ``restart(record:now:)`` /
/// ``restart(host:)`` undo what an abandoned attempt or an app restart leaves behind.
///
/// ```swift
/// // A preset as it is, a preset adjusted, or a policy from its parts.
/// let aws = RetryPolicy.awsStandard
/// var grpc = RetryPolicy.grpc
/// grpc.maxAttempts = 5
/// let mine = RetryPolicy(
///     backoff: Backoff(kind: .exponential, base: .milliseconds(250), max: .seconds(30), jitter: .full),
///     maxAttempts: 5, maxElapsed: .seconds(120), budget: .perRun(retries: 50))
/// let profile = try await retrying(mine) { _ in try await api.loadProfile() }
/// ```
public struct RetryPolicy: Sendable, Hashable, Codable {
    /// Which failures are retried and how (``Classifier``); default the offline-first chapter's table.
    public var classifier: Classifier
    /// The wait before each retry (``Backoff``), in nanoseconds; ``throttlingBase`` may change its
    /// base for throttling failures, and ``serverHints`` combines it with the server's delay.
    public var backoff: Backoff
    /// The backoff base for throttling failures, when it differs (AWS 2026: 1 s instead of 50 ms).
    public var throttlingBase: Nanoseconds?
    /// Attempts per operation, the first included (per cycle when `coolOff` is set). At least 1.
    public var maxAttempts: Int
    /// Stop when the next attempt would start later than this after the first one.
    public var maxElapsed: Nanoseconds?
    /// After `maxAttempts` failures in a row, wait this long and start a new cycle, indefinitely
    /// (RudderStack's mobile SDKs: 30 minutes) instead of giving up.
    public var coolOff: Nanoseconds?
    /// How Retry-After and pushback combine with backoff.
    public var serverHints: ServerHintPolicy
    /// Credential refreshes allowed per operation before it needs the user (the chapter: once).
    public var maxAuthRefreshes: Int
    /// The wait between a refresh and the retry it enables.
    public var authRefreshDelay: Nanoseconds
    /// The per-host limit on retries across operations (``RetryBudget``); default unlimited. A
    /// refused retry stops the operation as ``StopReason/budgetExhausted``.
    public var budget: RetryBudget
    /// A circuit breaker per host, or none.
    ///
    /// Stored unwrapped with a flag: testing a stored `CircuitBreaker?` copies all of it (a
    /// `memcpy` per test), and the simulator tests it on every attempt and every outcome. Stored as
    /// an optional, `bench-fleet` at 20,000 clients took 754 instead of 700 instructions per event
    /// without a breaker and 886 instead of 841 with one (callgrind, inside the event loop).
    public var breaker: CircuitBreaker? {
        get { hasBreaker ? breakerConfig : nil }
        set {
            hasBreaker = newValue != nil
            breakerConfig = newValue ?? Self.noBreaker
        }
    }
    @usableFromInline var hasBreaker = false
    @usableFromInline var breakerConfig = RetryPolicy.noBreaker
    /// What `breakerConfig` holds when there is no breaker (never read then).
    @usableFromInline static let noBreaker = CircuitBreaker.offlineFirst
    /// Client-side adaptive throttling per host, or none.
    public var throttle: AdaptiveThrottle?
    /// Hedged requests (``Hedging``), or none (the default): copies of an attempt sent while the
    /// first is out, instead of retries after a failure (see ``admitCopy(record:host:now:random:afterFailure:)``).
    /// An app runs a hedged policy with ``hedging(host:record:random:normalizer:operation:)``;
    /// ``retrying(_:clock:isolation:operation:)`` sends one attempt at a time whatever this says.
    public var hedging: Hedging?
    /// A concurrency limit per host, or none.
    public var concurrency: ConcurrencyLimit?
    /// Idempotency keys and reconciliation for ambiguous failures.
    public var ambiguity: AmbiguityPolicy
    /// What a restarted app does with its persisted schedule.
    public var onRestart: RestartSchedule

    /// A policy from its parts; times in nanoseconds (the disfavoured overload takes `Duration`s).
    /// Only `backoff` and `maxAttempts` are required; the rest default to the offline-first
    /// chapter's table, Retry-After as a minimum, one credential refresh, no budget, breaker,
    /// throttle or concurrency limit, idempotency keys, and a schedule kept across restarts.
    ///
    /// - Parameters:
    ///   - maxAttempts: attempts per operation, the first included; values below 1 become 1
    ///     (``unlimitedAttempts`` for no limit).
    ///   - maxElapsed: nil for no limit on the time since the first attempt.
    ///   - coolOff: nil to give up after `maxAttempts`; otherwise the wait before a new cycle.
    ///
    /// ```swift
    /// let policy = RetryPolicy(
    ///     backoff: Backoff(kind: .exponential, base: 500_000_000, max: 60_000_000_000, jitter: .full),
    ///     maxAttempts: 6, maxElapsed: 600 * Time.nanosecondsPerSecond, budget: .perRun(retries: 100))
    /// ```
    public init(
        classifier: Classifier = .offlineFirst,
        backoff: Backoff,
        throttlingBase: Nanoseconds? = nil,
        maxAttempts: Int,
        maxElapsed: Nanoseconds? = nil,
        coolOff: Nanoseconds? = nil,
        serverHints: ServerHintPolicy = .atLeast,
        maxAuthRefreshes: Int = 1,
        authRefreshDelay: Nanoseconds = 0,
        budget: RetryBudget = .unlimited,
        breaker: CircuitBreaker? = nil,
        throttle: AdaptiveThrottle? = nil,
        concurrency: ConcurrencyLimit? = nil,
        ambiguity: AmbiguityPolicy = .keyed,
        onRestart: RestartSchedule = .keep
    ) {
        self.classifier = classifier
        self.backoff = backoff
        self.throttlingBase = throttlingBase
        self.maxAttempts = Swift.max(1, maxAttempts)
        self.maxElapsed = maxElapsed
        self.coolOff = coolOff
        self.serverHints = serverHints
        self.maxAuthRefreshes = maxAuthRefreshes
        self.authRefreshDelay = authRefreshDelay
        self.budget = budget
        self.hasBreaker = breaker != nil
        self.breakerConfig = breaker ?? Self.noBreaker
        self.throttle = throttle
        self.concurrency = concurrency
        self.ambiguity = ambiguity
        self.onRestart = onRestart
    }

    /// Whether clients must keep per-host state between operations (a budget, a breaker, a
    /// throttle, a concurrency limit); the simulator allocates a ``HostGuard`` per client only then.
    /// An app keeps one per host whatever the policy (``RetryHost``).
    public var keepsHostState: Bool {
        budget != .unlimited || hasBreaker || throttle != nil || concurrency != nil
    }

    /// The backoff that applies to a failure of class `c`.
    @inlinable @inline(__always) public func schedule(for c: FailureClass) -> Backoff {
        guard c.isThrottling, let throttlingBase else { return backoff }
        var b = backoff
        b.base = throttlingBase
        return b
    }
}
