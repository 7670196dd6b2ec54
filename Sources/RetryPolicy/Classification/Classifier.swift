/// Maps a ``NormalizedError`` to a ``FailureClass`` by a pure function of the error and this table.
///
/// The default table is the offline-first chapter's: 500/502/503/504 and transient network errors
/// and timeouts retry with backoff; 429 retries after the server's delay; 401/403 refresh
/// credentials then retry once; 400/404/409/422 are permanent (409 configurable); a locked database
/// retries, a full disk or an unavailable key needs the user or the system.
///
/// Checks run in a fixed order: local failures, timeouts, transport failures, the "overloaded"
/// code, throttling codes, no status at all (an unknown transport failure), then the status lists
/// (permanent → auth → hinted → throttling → retryable), transient codes, 409, unlisted statuses,
/// other 401/403 and 4xx. Then the server's delay is attached, and ``onlyUnprocessed`` and
/// ``retryEverything`` have the last word.
///
/// ```swift
/// // The default table, but 409 is retried and 503 means "slow down" (S3's `SlowDown`).
/// var classifier = Classifier.offlineFirst
/// classifier.retryConflict = true
/// classifier.throttlingStatuses.insert(503)
/// let c = classifier.classify(.http(503, retryAfter: .seconds(2)))  // throttled, retryable, minDelay 2 s
/// ```
public struct Classifier: Sendable, Hashable, Codable {
    /// Statuses retried with backoff (server transient errors).
    public var retryableStatuses: StatusSet
    /// Statuses that mean "slow down" (rate limiting).
    public var throttlingStatuses: StatusSet
    /// Statuses that mean "credentials expired": refresh, then retry once.
    public var authRefreshStatuses: StatusSet
    /// Retry 409 Conflict (some APIs use it for optimistic-concurrency retries; Envoy's `retriable-4xx`).
    public var retryConflict: Bool
    /// Retry timeouts (after the request was sent the outcome is ambiguous).
    public var retryTimeouts: Bool
    /// Retry transport failures (DNS, reset, refused, TLS, offline).
    public var retryTransport: Bool
    /// Retry error codes marked transient (`RequestTimeout`, …) whatever their status.
    public var retryTransientCodes: Bool
    /// Treat throttling error codes as throttling whatever their status (the AWS SDKs). When false,
    /// only `throttlingStatuses` throttle.
    public var throttlingCodes: Bool
    /// Retry every failure, whatever it is — even 404 (the naive baseline; resilience4j, Polly and
    /// cenkalti/backoff, which retry every error the app does not mark permanent).
    public var retryEverything: Bool
    /// Statuses that are never retried, whatever the other lists say (RudderStack: 400, 401, 404, 413).
    public var permanentStatuses: StatusSet
    /// Statuses retried only when the response carries a server delay (urllib3's
    /// `RETRY_AFTER_STATUS_CODES` 413, 429, 503 with `respect_retry_after_header`).
    public var hintedStatuses: StatusSet
    /// Retry statuses that no list names (RudderStack: "other HTTP errors" are retried).
    public var retryUnlistedStatuses: Bool
    /// Retry only failures that surely did not take effect: never sent, or refused unprocessed
    /// (Finagle's requeues of `RetryableWriteException` and NACKs; gRPC's transparent retries).
    public var onlyUnprocessed: Bool

    /// A table; with no arguments, the offline-first chapter's (``offlineFirst``). Each parameter
    /// sets the property of the same name.
    public init(
        retryableStatuses: StatusSet = [500, 502, 503, 504],
        throttlingStatuses: StatusSet = [429],
        authRefreshStatuses: StatusSet = [401, 403],
        retryConflict: Bool = false,
        retryTimeouts: Bool = true,
        retryTransport: Bool = true,
        retryTransientCodes: Bool = true,
        throttlingCodes: Bool = true,
        retryEverything: Bool = false,
        permanentStatuses: StatusSet = [],
        hintedStatuses: StatusSet = [],
        retryUnlistedStatuses: Bool = false,
        onlyUnprocessed: Bool = false
    ) {
        self.retryableStatuses = retryableStatuses
        self.throttlingStatuses = throttlingStatuses
        self.authRefreshStatuses = authRefreshStatuses
        self.retryConflict = retryConflict
        self.retryTimeouts = retryTimeouts
        self.retryTransport = retryTransport
        self.retryTransientCodes = retryTransientCodes
        self.throttlingCodes = throttlingCodes
        self.retryEverything = retryEverything
        self.permanentStatuses = permanentStatuses
        self.hintedStatuses = hintedStatuses
        self.retryUnlistedStatuses = retryUnlistedStatuses
        self.onlyUnprocessed = onlyUnprocessed
    }

    /// The offline-first chapter's table (the default).
    public static let offlineFirst = Classifier()

    /// Classifies one failure. Pure: the same error always gives the same class.
    @inlinable @inline(__always) public func classify(_ e: NormalizedError) -> FailureClass {
        var c = baseClass(e)
        if let hint = e.retryAfter {
            c.serverHint = hint
            if hint > 0 { c.minDelay = hint }
        }
        if e.unprocessed { c.ambiguous = false }
        if onlyUnprocessed && !e.surelyNotApplied && c.retryable && !c.requiresAuthRefresh {
            c.retryable = false
        }
        if retryEverything {
            c.retryable = true
            c.userActionRequired = false
            c.requiresAuthRefresh = false
        }
        return c
    }

    @inlinable @inline(__always) func baseClass(_ e: NormalizedError) -> FailureClass {
        if let local = e.local {
            switch local {
            case .databaseLocked:
                return FailureClass(kind: .localResource, retryable: true)
            case .diskFull, .keyUnavailable:
                return FailureClass(kind: .localResource, retryable: false, userActionRequired: true)
            }
        }
        if let phase = e.timeout {
            return FailureClass(
                kind: .timeout, retryable: retryTimeouts,
                ambiguous: phase == .response && e.reachedServer != .no, isTimeout: true)
        }
        if let t = e.transport {
            // A reset after the request went out leaves the write's fate unknown.
            let ambiguous = t == .connectionReset && e.reachedServer != .no
            return FailureClass(kind: .transientNetwork, retryable: retryTransport, ambiguous: ambiguous)
        }
        if e.code == .overloadedDoNotRetry {
            return FailureClass(kind: .overloaded, retryable: false)
        }
        if throttlingCodes && e.code == .throttling {
            return FailureClass(kind: .throttled, retryable: true, isThrottling: true)
        }
        guard let status = e.status else {
            // Nothing known beyond "it failed": an unknown transport problem.
            return FailureClass(kind: .transientNetwork, retryable: retryTransport)
        }
        if permanentStatuses.contains(status) {
            return FailureClass(
                kind: status == 401 || status == 403 ? .authExpired : .permanent, retryable: false,
                userActionRequired: status < 500)
        }
        if authRefreshStatuses.contains(status) {
            return FailureClass(kind: .authExpired, retryable: true, requiresAuthRefresh: true)
        }
        if hintedStatuses.contains(status) && e.retryAfter != nil {
            return FailureClass(
                kind: status == 429 ? .throttled : (status >= 500 ? .serverError : .otherStatus),
                retryable: true, isThrottling: status == 429)
        }
        if throttlingStatuses.contains(status) {
            return FailureClass(kind: .throttled, retryable: true, isThrottling: true)
        }
        if retryableStatuses.contains(status) {
            return FailureClass(kind: .serverError, retryable: true)
        }
        if retryTransientCodes && e.code == .transient {
            return FailureClass(kind: .serverError, retryable: true)
        }
        if status == 409 {
            let retry = retryConflict || retryUnlistedStatuses
            return FailureClass(kind: .conflict, retryable: retry, userActionRequired: !retry)
        }
        if retryUnlistedStatuses {
            return FailureClass(kind: status >= 500 ? .serverError : .otherStatus, retryable: true)
        }
        if status == 401 || status == 403 {
            // Credentials this table does not refresh: the user must sign in again.
            return FailureClass(kind: .authExpired, retryable: false, userActionRequired: true)
        }
        if (400..<500).contains(status) {
            return FailureClass(kind: .permanent, retryable: false, userActionRequired: true)
        }
        // 501, 505 … : the server says it cannot do this at all.
        return FailureClass(kind: .permanent, retryable: false, userActionRequired: status < 500)
    }
}
