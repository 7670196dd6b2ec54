/// What to do after a failed attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Attempt again at this instant (the record's `nextAttemptAt`).
    case retry(at: Nanoseconds)
    /// Refresh credentials, then attempt again at this instant.
    case refreshCredentials(retryAt: Nanoseconds)
    /// The failure was ambiguous: at this instant ask the server whether the operation took effect
    /// (`GET /operations/{id}`), then report the answer to
    /// ``RetryPolicy/reconciled(_:record:host:now:random:)``.
    case reconcile(at: Nanoseconds)
    /// Reconciliation found the operation applied: it succeeded, do not send it again.
    case confirmed
    /// Stop: the policy's limits ran out (`reason.isGiveUp`) or the operation needs attention.
    case stop(StopReason)
}
