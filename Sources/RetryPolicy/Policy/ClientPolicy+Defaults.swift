/// The defaults of ``ClientPolicy``: a policy that only decides after failures.
extension ClientPolicy {
    /// Admits every attempt: ``Admission/proceed``, nothing drawn, nothing recorded.
    @inlinable @inline(__always)
    public func admit<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds,
        random: inout R
    ) -> Admission {
        .proceed
    }

    /// Counts the attempt in the record: ``OperationRecord/attemptCount`` + 1, the first and
    /// latest attempt instants, no next attempt, phase in flight. The host is not touched.
    @inlinable @inline(__always)
    public func attemptStarted(record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds) {
        record.attemptCount &+= 1
        if record.firstAttemptAt == nil { record.firstAttemptAt = now }
        record.lastAttemptAt = now
        record.nextAttemptAt = nil
        record.phase = .inFlight
    }

    /// Ends the operation: phase succeeded, no next attempt. The host is not touched.
    @inlinable @inline(__always)
    public func succeeded<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds,
        random: inout R
    ) {
        record.phase = .succeeded
        record.nextAttemptAt = nil
    }

    /// `.applied` ends the operation as ``RetryDecision/confirmed``; `.notApplied` and `.unknown`
    /// stop it as ``StopReason/ambiguousOutcome`` (a policy that reconciles overrides this).
    @inlinable
    public func reconciled<R: UniformSource & ~Copyable>(
        _ result: ReconcileResult, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        guard result == .applied else { return record.stop(.ambiguousOutcome) }
        record.phase = .succeeded
        record.nextAttemptAt = nil
        return .confirmed
    }

    /// Keeps the persisted schedule (``OperationRecord/restartKeepingSchedule(now:)``): an attempt
    /// that was in flight becomes ambiguous and due now; nil if the operation had finished.
    public func restart(record: inout OperationRecord, now: Nanoseconds) -> Nanoseconds? {
        record.restartKeepingSchedule(now: now)
    }

    /// Clears what a restart ends: attempts in flight and operations waiting for a slot.
    public func restart(host: inout HostGuard) {
        host.inFlight = 0
        host.waitingUserInitiated = 0
        host.waitingBackground = 0
    }

    /// ``HostGuard/init()``: no budget, breaker or throttle.
    public func makeHostGuard() -> HostGuard { HostGuard() }

    /// No concurrency limit: nil.
    public var concurrency: ConcurrencyLimit? { nil }

    /// Idempotency keys, no status queries (``AmbiguityPolicy/keyed``).
    public var ambiguity: AmbiguityPolicy { AmbiguityPolicy() }

    /// No host state: false, so the simulator keeps one ``HostGuard`` for the whole fleet.
    public var keepsHostState: Bool { false }

    /// No hedging: nil.
    public var hedging: Hedging? { nil }

    /// ``admit(record:host:now:random:)`` for a copy, which does not wait: a wait for a slot is
    /// ``StopReason/concurrencyLimited``, for a time ``StopReason/throttledLocally``.
    public func admitCopy<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R, afterFailure: Bool
    ) -> StopReason? {
        switch admit(record: &record, host: &host, now: now, random: &random) {
        case .proceed: nil
        case .waitForSlot: .concurrencyLimited
        case .wait: .throttledLocally
        case .reject(let reason): reason
        }
    }

    /// ``succeeded(record:host:now:random:)``: the copies still out are the caller's to cancel.
    public func copySucceeded<R: UniformSource & ~Copyable>(
        othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) {
        succeeded(record: &record, host: &host, now: now, random: &random)
    }

    /// ``decide(after:record:host:now:random:)``: a retry it plans is the next copy now while
    /// fewer than ``Hedging/maxAttempts`` copies have gone out, else a wait for the copies still
    /// out, and with none out ``StopReason/attemptsExhausted``. A stop ends the operation, unless
    /// it gives up (a limit ran out) while other copies are out: they may yet succeed.
    public func copyFailed<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> HedgeDecision {
        guard case .inFlight = record.phase else { return .wait }
        let decision = decide(after: failure, record: &record, host: &host, now: now, random: &random)
        if case .stop(let reason) = decision {
            // A limit ran out with copies still out: they may yet succeed.
            guard othersInFlight > 0 && Self.limitRanOut(reason) else { return .stop(reason) }
            record.phase = .inFlight
            return .wait
        }
        let more = record.attemptCount < Int32(hedging?.maxAttempts ?? 1)
        if more || othersInFlight > 0 {
            if othersInFlight > 0 {
                // The operation is still in flight: its other copies are out.
                record.phase = .inFlight
                record.nextAttemptAt = nil
            }
            return more ? .sendNow : .wait
        }
        return .stop(Self.stopped(&record, .attemptsExhausted))
    }

    /// Whether `reason` is a limit running out (attempts, the budget, a guard), not the failure itself.
    private static func limitRanOut(_ reason: StopReason) -> Bool {
        switch reason {
        case .attemptsExhausted, .budgetExhausted, .throttledLocally, .circuitOpen, .concurrencyLimited: true
        default: false
        }
    }

    /// `record` stopped for `reason`; returns the reason.
    private static func stopped(_ record: inout OperationRecord, _ reason: StopReason) -> StopReason {
        _ = record.stop(reason)
        return reason
    }

    /// When the next copy is due: `delay` nanoseconds after the latest went out
    /// (``OperationRecord/lastAttemptAt``); nil when the policy does not hedge, no copy is out
    /// yet, or ``Hedging/maxAttempts`` copies have gone out.
    ///
    /// - Parameter delay: ``Hedging/Delay/fixed(_:)``'s, or the percentile the caller tracks
    ///   (``LatencyWindow/quantile(_:now:)``), nanoseconds.
    @inlinable public func nextCopyAt(record: OperationRecord, delay: Nanoseconds) -> Nanoseconds? {
        guard let hedging, record.attemptCount < Int32(hedging.maxAttempts), let last = record.lastAttemptAt else { return nil }
        return Time.adding(last, Swift.max(0, delay))
    }
}
