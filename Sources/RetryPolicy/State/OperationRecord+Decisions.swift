/// Ending a decision with the record in step: for ``ClientPolicy`` implementations, so that the
/// record's phase and next attempt always match the decision returned (the simulator's restarts
/// and reconnects read them).
extension OperationRecord {
    /// Schedules the next attempt at `at` (nanoseconds, the caller's clock): phase ``Phase/willRetry``.
    @inlinable @inline(__always)
    public mutating func retry(at: Nanoseconds) -> RetryDecision {
        nextAttemptAt = at
        phase = .willRetry
        return .retry(at: at)
    }

    /// Stops the operation for `reason`: phase ``Phase/stopped(_:)``, no next attempt.
    @inlinable @inline(__always)
    public mutating func stop(_ reason: StopReason) -> RetryDecision {
        nextAttemptAt = nil
        phase = .stopped(reason)
        return .stop(reason)
    }
}
