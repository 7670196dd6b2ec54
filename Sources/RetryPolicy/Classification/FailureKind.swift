/// What kind of failure an attempt met: the taxonomy of "Retries, Exponential Backoff, and Robust
/// Failure Handling" (offline-first sync, ch. 11), which the seeds of this project start from.
public enum FailureKind: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// DNS, TCP reset, TLS handshake, refused connection, no network.
    case transientNetwork
    /// A connect or response timeout.
    case timeout
    /// 500, 502, 503, 504 (and any status the classifier lists as retryable).
    case serverError
    /// 429 or a throttling error code: retry after the server's delay.
    case throttled
    /// 401/403 from an expired credential: refresh, then retry once.
    case authExpired
    /// 400, 404, 422 and other 4xx: the request itself is wrong.
    case permanent
    /// 409 (and domain conflicts): retryable only where the API says so.
    case conflict
    /// Disk full, database locked, key unavailable.
    case localResource
    /// The SRE book's "overloaded; don't retry" answer.
    case overloaded
    /// A status the table does not single out (retryable only with ``Classifier/retryUnlistedStatuses``).
    case otherStatus
    /// The client's own circuit breaker refused the attempt (resilience4j `CallNotPermittedException`,
    /// Polly `BrokenCircuitException`): nothing was sent.
    case circuitOpen

    /// Failures that happen on the client, before anything is sent: they say nothing about the host.
    @inlinable public var isLocal: Bool { self == .localResource || self == .circuitOpen }
}
