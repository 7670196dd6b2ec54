/// The defaults of ``ClientPolicy``: a policy that only decides after failures.
extension ClientPolicy {
    @inlinable @inline(__always)
    public func admit<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds,
        random: inout R
    ) -> Admission {
        .proceed
    }

    @inlinable @inline(__always)
    public func attemptStarted(record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds) {
        record.attemptCount &+= 1
        if record.firstAttemptAt == nil { record.firstAttemptAt = now }
        record.lastAttemptAt = now
        record.nextAttemptAt = nil
        record.phase = .inFlight
    }

    @inlinable @inline(__always)
    public func succeeded<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds,
        random: inout R
    ) {
        record.phase = .succeeded
        record.nextAttemptAt = nil
    }

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

    public func restart(record: inout OperationRecord, now: Nanoseconds) -> Nanoseconds? {
        record.restartKeepingSchedule(now: now)
    }

    public func restart(host: inout HostGuard) {
        host.inFlight = 0
        host.waitingUserInitiated = 0
        host.waitingBackground = 0
    }

    public func makeHostGuard() -> HostGuard { HostGuard() }

    public var concurrency: ConcurrencyLimit? { nil }

    public var ambiguity: AmbiguityPolicy { AmbiguityPolicy() }

    public var keepsHostState: Bool { false }
}
