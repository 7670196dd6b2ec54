/// Whether an attempt may start now: the answer of ``RetryPolicy/admit(record:host:now:random:)``.
public enum Admission: Sendable, Hashable {
    /// Start it now: call ``RetryPolicy/attemptStarted(record:host:now:)`` and send it.
    case proceed
    /// Not before this instant (the breaker is open; or it refused the attempt and the policy
    /// scheduled the next one). Ask again then.
    case wait(until: Nanoseconds)
    /// The host is at its concurrency limit: ask again when one of its attempts ends
    /// (``HostGuard/waiting`` counts the operations waiting; wake user-initiated ones first).
    case waitForSlot
    /// Refused locally; the operation stops for this reason.
    case reject(StopReason)
}
