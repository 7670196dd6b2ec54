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

/// A set of ``FailureKind``s as bits: which failures a circuit breaker counts against its host.
public struct FailureKindSet: OptionSet, Sendable, Hashable, Codable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ kind: FailureKind) { rawValue = 1 << UInt16(kind.rawValue) }

    @inlinable public func contains(_ kind: FailureKind) -> Bool { rawValue & (1 << UInt16(kind.rawValue)) != 0 }

    /// Failures that say the host is unwell: transport errors, timeouts, 5xx, throttling, overload.
    public static let hostFailures: FailureKindSet = [
        .init(.transientNetwork), .init(.timeout), .init(.serverError), .init(.throttled), .init(.overloaded),
    ]
    /// Every failure that reached (or tried to reach) the host, 4xx included: resilience4j's and
    /// Polly's defaults, which record every exception.
    public static let allFailures: FailureKindSet = hostFailures.union([
        .init(.authExpired), .init(.permanent), .init(.conflict), .init(.otherStatus),
    ])
}

/// The classification of one failure: whether and how to retry it.
public struct FailureClass: Sendable, Hashable, Codable {
    public var kind: FailureKind
    /// Another attempt may succeed.
    public var retryable: Bool
    /// The earliest the next attempt may go, from the failure (e.g. the server's Retry-After); 0 if none.
    public var minDelay: Nanoseconds
    /// The server asked for a delay (Retry-After, pushback): ``ServerHintPolicy`` decides how it combines with backoff.
    public var serverHint: Nanoseconds?
    /// Refresh credentials before the next attempt (401/403).
    public var requiresAuthRefresh: Bool
    /// Retrying cannot help until the user (or the system) acts: sign in, free space, fix the data.
    public var userActionRequired: Bool
    /// The request may have been applied although it failed (response timeout, reset after sending).
    public var ambiguous: Bool
    /// A throttling response: AWS charges it a different retry cost and base delay.
    public var isThrottling: Bool
    /// A timeout: the pre-2026 AWS quota charges timeouts double.
    public var isTimeout: Bool

    public init(
        kind: FailureKind, retryable: Bool, minDelay: Nanoseconds = 0, serverHint: Nanoseconds? = nil,
        requiresAuthRefresh: Bool = false, userActionRequired: Bool = false, ambiguous: Bool = false,
        isThrottling: Bool = false, isTimeout: Bool = false
    ) {
        self.kind = kind
        self.retryable = retryable
        self.minDelay = minDelay
        self.serverHint = serverHint
        self.requiresAuthRefresh = requiresAuthRefresh
        self.userActionRequired = userActionRequired
        self.ambiguous = ambiguous
        self.isThrottling = isThrottling
        self.isTimeout = isTimeout
    }

    /// The same with `minDelay` and `serverHint` as `Duration`s (truncated to whole nanoseconds).
    @_disfavoredOverload
    public init(
        kind: FailureKind, retryable: Bool, minDelay: Duration, serverHint: Duration? = nil,
        requiresAuthRefresh: Bool = false, userActionRequired: Bool = false, ambiguous: Bool = false,
        isThrottling: Bool = false, isTimeout: Bool = false
    ) {
        self.init(kind: kind, retryable: retryable, minDelay: Time.nanoseconds(minDelay), serverHint: serverHint.map(Time.nanoseconds),
                  requiresAuthRefresh: requiresAuthRefresh, userActionRequired: userActionRequired, ambiguous: ambiguous,
                  isThrottling: isThrottling, isTimeout: isTimeout)
    }
}
