/// The policy with `Duration`s: its initializer, and the state machine for callers whose clock
/// reads `Duration`s since an epoch (`epoch.duration(to: clock.now)`). Each converts with
/// ``Time/nanoseconds(_:)`` (whole nanoseconds, truncated) and calls the ``Nanoseconds`` form, which
/// the simulator calls directly. The instants in the answers (``Admission/wait(until:)``,
/// ``RetryDecision/retry(at:)``, …) stay ``Nanoseconds`` since the same epoch:
/// `Duration.nanoseconds(t)` turns one back.
extension RetryPolicy {
    /// A policy with its times as `Duration`s; each parameter means what it means in the
    /// ``Nanoseconds`` initializer.
    @_disfavoredOverload
    public init(
        classifier: Classifier = .offlineFirst,
        backoff: Backoff,
        throttlingBase: Duration? = nil,
        maxAttempts: Int,
        maxElapsed: Duration? = nil,
        coolOff: Duration? = nil,
        serverHints: ServerHintPolicy = .atLeast,
        maxAuthRefreshes: Int = 1,
        authRefreshDelay: Duration = .zero,
        budget: RetryBudget = .unlimited,
        breaker: CircuitBreaker? = nil,
        throttle: AdaptiveThrottle? = nil,
        concurrency: ConcurrencyLimit? = nil,
        ambiguity: AmbiguityPolicy = .keyed,
        onRestart: RestartSchedule = .keep
    ) {
        self.init(
            classifier: classifier, backoff: backoff, throttlingBase: throttlingBase.map(Time.nanoseconds), maxAttempts: maxAttempts,
            maxElapsed: maxElapsed.map(Time.nanoseconds), coolOff: coolOff.map(Time.nanoseconds), serverHints: serverHints,
            maxAuthRefreshes: maxAuthRefreshes, authRefreshDelay: Time.nanoseconds(authRefreshDelay), budget: budget,
            breaker: breaker, throttle: throttle, concurrency: concurrency, ambiguity: ambiguity, onRestart: onRestart)
    }

    /// ``admit(record:host:now:random:)`` at `now` since the caller's epoch.
    @_disfavoredOverload
    @inlinable public func admit<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Duration, random: inout R
    ) -> Admission {
        admit(record: &record, host: &host, now: Time.nanoseconds(now), random: &random)
    }

    /// ``attemptStarted(record:host:now:)`` at `now` since the caller's epoch.
    @_disfavoredOverload
    @inlinable public func attemptStarted(record: inout OperationRecord, host: inout HostGuard, now: Duration) {
        attemptStarted(record: &record, host: &host, now: Time.nanoseconds(now))
    }

    /// ``succeeded(record:host:now:random:)`` at `now` since the caller's epoch.
    @_disfavoredOverload
    @inlinable public func succeeded<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Duration, random: inout R
    ) {
        succeeded(record: &record, host: &host, now: Time.nanoseconds(now), random: &random)
    }

    /// ``decide(after:record:host:now:random:)`` at `now` since the caller's epoch.
    @_disfavoredOverload
    @inlinable public func decide<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard, now: Duration, random: inout R
    ) -> RetryDecision {
        decide(after: failure, record: &record, host: &host, now: Time.nanoseconds(now), random: &random)
    }

    /// ``reconciled(_:record:host:now:random:)`` at `now` since the caller's epoch.
    @_disfavoredOverload
    @inlinable public func reconciled<R: UniformSource & ~Copyable>(
        _ result: ReconcileResult, record: inout OperationRecord, host: inout HostGuard, now: Duration, random: inout R
    ) -> RetryDecision {
        reconciled(result, record: &record, host: &host, now: Time.nanoseconds(now), random: &random)
    }

    /// ``cancelled(record:host:now:)`` at `now` since the caller's epoch.
    @_disfavoredOverload
    @inlinable public func cancelled(record: inout OperationRecord, host: inout HostGuard, now: Duration) {
        cancelled(record: &record, host: &host, now: Time.nanoseconds(now))
    }

    /// ``restart(record:now:)`` at `now` since the caller's epoch.
    @_disfavoredOverload
    public func restart(record: inout OperationRecord, now: Duration) -> Nanoseconds? {
        restart(record: &record, now: Time.nanoseconds(now))
    }
}
