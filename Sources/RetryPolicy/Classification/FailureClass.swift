/// The classification of one failure: whether and how to retry it.
public struct FailureClass: Sendable, Hashable, Codable {
    /// What kind of failure it was: what the breaker counts and the record keeps (``OperationRecord/lastErrorClass``).
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

    /// A class with every flag off unless given; `minDelay` and `serverHint` in nanoseconds
    /// (0 and nil: no server delay). ``Classifier/classify(_:)`` builds these; custom policies and
    /// tests may too.
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
        self.init(
            kind: kind, retryable: retryable, minDelay: Time.nanoseconds(minDelay), serverHint: serverHint.map(Time.nanoseconds),
            requiresAuthRefresh: requiresAuthRefresh, userActionRequired: userActionRequired, ambiguous: ambiguous,
            isThrottling: isThrottling, isTimeout: isTimeout)
    }
}
