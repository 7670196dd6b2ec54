/// A complete retry policy: classification, backoff, caps, server hints and budget. A plain value:
/// the same one drives an app's ``retrying(_:clock:operation:)`` executor and the simulator's
/// millions of clients ("what you simulate is what you ship").
///
/// The state it acts on lives outside it: per operation in ``OperationRecord``, per client and
/// host in ``HostGuard``. Each step below takes them `inout` and returns what to do.
public struct RetryPolicy: Sendable, Hashable, Codable {
    public var classifier: Classifier
    public var backoff: Backoff
    /// The backoff for throttling failures, when it differs (AWS 2026: base 1 s instead of 50 ms).
    public var throttlingBackoff: Backoff?
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
    public var budget: RetryBudget

    public init(
        classifier: Classifier = .offlineFirst,
        backoff: Backoff,
        throttlingBackoff: Backoff? = nil,
        maxAttempts: Int,
        maxElapsed: Nanoseconds? = nil,
        coolOff: Nanoseconds? = nil,
        serverHints: ServerHintPolicy = .atLeast,
        maxAuthRefreshes: Int = 1,
        authRefreshDelay: Nanoseconds = 0,
        budget: RetryBudget = .unlimited
    ) {
        self.classifier = classifier
        self.backoff = backoff
        self.throttlingBackoff = throttlingBackoff
        self.maxAttempts = Swift.max(1, maxAttempts)
        self.maxElapsed = maxElapsed
        self.coolOff = coolOff
        self.serverHints = serverHints
        self.maxAuthRefreshes = maxAuthRefreshes
        self.authRefreshDelay = authRefreshDelay
        self.budget = budget
    }

    /// Whether an attempt may start now. Call before every attempt, the first included.
    @inlinable public func admit(host: inout HostGuard, now: Nanoseconds) -> Admission {
        .proceed
    }

    /// Records that an attempt starts now.
    @inlinable public func attemptStarted(record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds) {
        record.attemptCount &+= 1
        if record.firstAttemptAt == nil { record.firstAttemptAt = now }
        record.lastAttemptAt = now
        record.nextAttemptAt = nil
        record.phase = .inFlight
        host.inFlight &+= 1
    }

    /// Records that the attempt in flight succeeded; the operation is done.
    @inlinable public func succeeded(record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds) {
        record.phase = .succeeded
        record.nextAttemptAt = nil
        host.inFlight &-= 1
    }

    /// Decides what follows the failure of the attempt in flight, and updates the record.
    ///
    /// Order of checks: server "stop" → credentials → retryable → attempts (or cool-off) → delay
    /// (backoff, then server hint) → elapsed time → budget. On `.retry(at:)` the record's
    /// `nextAttemptAt` holds the instant; on `.stop` its `blockedReason` holds the reason.
    @inlinable public func decide<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        host.inFlight &-= 1
        let c = classifier.classify(failure)
        record.lastErrorClass = c.kind
        record.cycleFailures &+= 1

        if serverHints.negativeMeansStop, let hint = c.serverHint, hint < 0 {
            return stop(.serverSaidStop, &record)
        }
        if c.requiresAuthRefresh {
            guard record.authRefreshes < maxAuthRefreshes else { return stop(.needsSignIn, &record) }
            record.authRefreshes &+= 1
            let at = Time.adding(now, authRefreshDelay)
            record.nextAttemptAt = at
            record.phase = .willRetry
            return .refreshCredentials(retryAt: at)
        }
        guard c.retryable else { return stop(Self.reasonNotRetryable(c), &record) }

        if record.cycleFailures >= Int32(clamping: maxAttempts) {
            guard let coolOff else { return stop(.attemptsExhausted, &record) }
            record.cycleFailures = 0
            record.backoffStep = 0
            record.backoffMemory = 0
            let at = Time.adding(now, coolOff)
            record.nextAttemptAt = at
            record.phase = .coolingOff
            return .retry(at: at)
        }

        record.backoffStep &+= 1
        let schedule = c.isThrottling ? (throttlingBackoff ?? backoff) : backoff
        let computed = schedule.delay(retry: Int(record.backoffStep), memory: &record.backoffMemory, random: &random)
        let (delay, reset) = serverHints.combine(backoff: computed, hint: c.serverHint)
        if reset {
            record.backoffStep = 0
            record.backoffMemory = 0
        }
        let at = Time.adding(now, delay)
        if let maxElapsed, let first = record.firstAttemptAt, at - first > maxElapsed {
            return stop(.elapsedExceeded, &record)
        }
        var cost: Int32 = 0
        guard host.budget.tryAcquire(budget, failure: c, now: now, cost: &cost) else {
            return stop(.budgetExhausted, &record)
        }
        record.lastRetryCost = cost
        record.nextAttemptAt = at
        record.phase = c.ambiguous ? .unknown : .willRetry
        return .retry(at: at)
    }

    @inlinable func stop(_ reason: StopReason, _ record: inout OperationRecord) -> RetryDecision {
        record.blockedReason = reason
        record.nextAttemptAt = nil
        record.phase = .stopped
        return .stop(reason)
    }

    @inlinable static func reasonNotRetryable(_ c: FailureClass) -> StopReason {
        switch c.kind {
        case .overloaded: .serverSaidStop
        case .localResource: c.userActionRequired ? .needsResource : .nonRetryable
        case .authExpired: .needsSignIn
        default: c.userActionRequired ? .needsFix : .nonRetryable
        }
    }
}

extension RetryPolicy {
    /// Whether clients must keep per-host state between operations (a budget, a breaker, …);
    /// the simulator allocates a ``HostGuard`` per client only then.
    public var keepsHostState: Bool {
        budget != .unlimited
    }
}
