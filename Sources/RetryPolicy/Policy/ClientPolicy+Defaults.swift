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
}
