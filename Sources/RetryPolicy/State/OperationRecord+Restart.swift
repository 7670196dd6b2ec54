/// An app restart that keeps the persisted schedule: ``RetryPolicy``'s `onRestart: .keep` and
/// ``ClientPolicy``'s default.
extension OperationRecord {
    /// Keeps the record (attempt count, `nextAttemptAt`, backoff step) after an app restart. An
    /// attempt that was in flight when the app died has an unknown outcome, so the operation is
    /// marked ambiguous and due now; nothing waits for a slot or holds a retry slot any more.
    /// - Returns: the instant the operation is next due (nanoseconds, no earlier than `now`); nil
    ///   if it had finished.
    public mutating func restartKeepingSchedule(now: Nanoseconds) -> Nanoseconds? {
        if isFinished { return nil }
        if case .inFlight = phase {
            phase = .unknown
            nextAttemptAt = nil
        }
        waitingForSlot = false
        holdsRetrySlot = false
        return Swift.max(now, nextAttemptAt ?? now)
    }
}
