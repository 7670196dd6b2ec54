/// Why an operation stopped without succeeding, or why it waits. The persisted `blockedReason`.
public enum StopReason: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// `maxAttempts` attempts failed (and no cool-off is configured).
    case attemptsExhausted
    /// The next attempt would start after `maxElapsed` from the first.
    case elapsedExceeded
    /// The retry budget or token bucket refused the retry.
    case budgetExhausted
    /// The server said not to retry (gRPC negative pushback, SRE "overloaded; don't retry").
    case serverSaidStop
    /// The failure is not retryable and needs no user action (e.g. overload rejections).
    case nonRetryable
    /// Credentials stayed invalid after a refresh: the user must sign in again.
    case needsSignIn
    /// The request is wrong (400/404/422, 409 where not retryable): fix the data.
    case needsFix
    /// A local resource needs the user or system (disk full, key unavailable).
    case needsResource
    /// Rejected locally by client-side adaptive throttling.
    case throttledLocally
    /// The host's circuit breaker is open and the policy fails fast (Finagle's dead endpoint).
    case circuitOpen
    /// The host's concurrency limit is reached and the policy fails instead of waiting (Envoy's
    /// `max_requests` overflow).
    case concurrencyLimited
    /// The write may have been applied and the policy does not retry ambiguous failures
    /// (no idempotency key, no reconciliation): it needs checking before anything else.
    case ambiguousOutcome
    /// The caller cancelled the operation (task cancellation, an app quitting, the simulation's horizon).
    case cancelled

    /// True when the operation failed because the retry policy's limits ran out ("gave up"),
    /// false when it needs attention first ("blocked").
    public var isGiveUp: Bool {
        switch self {
        case .attemptsExhausted, .elapsedExceeded, .budgetExhausted, .serverSaidStop, .nonRetryable, .throttledLocally,
            .circuitOpen, .concurrencyLimited, .cancelled:
            true
        case .needsSignIn, .needsFix, .needsResource, .ambiguousOutcome:
            false
        }
    }
}
