/// The state a client keeps per host (or endpoint) across operations: its retry budget, its
/// breaker, its attempts in flight. The matching configuration lives in ``RetryPolicy``.
///
/// - Warning: A value type with no locking: an app keeps one per host inside an actor or a mutex;
///   the simulator keeps one per simulated client and host.
public struct HostGuard: Sendable, Hashable, Codable {
    public var budget: RetryBudgetState
    /// Attempts started and not yet finished.
    public var inFlight: Int32 = 0

    public init(policy: RetryPolicy) {
        budget = RetryBudgetState(policy.budget)
    }
}

/// Whether an attempt may start now.
public enum Admission: Sendable, Hashable {
    case proceed
    /// Not before this instant (a breaker is open, the host is at its concurrency limit).
    case wait(until: Nanoseconds)
    /// Refused locally; the operation stops for this reason.
    case reject(StopReason)
}
