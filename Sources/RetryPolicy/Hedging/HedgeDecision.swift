/// What follows the failure of one copy of a hedged operation: the answer of
/// ``RetryPolicy/copyFailed(after:othersInFlight:record:host:now:random:)``.
public enum HedgeDecision: Sendable, Hashable {
    /// Send the next copy now (gRPC: a non-fatal status shortcuts the hedging delay), after
    /// ``RetryPolicy/admitCopy(record:host:now:random:afterFailure:)``.
    case sendNow
    /// Send nothing: every copy the policy allows has gone out, and others are still in flight.
    case wait
    /// The operation has failed (a fatal failure, or the last copy's): cancel the copies still
    /// out. The record's phase is `.stopped(reason)`.
    case stop(StopReason)
}
