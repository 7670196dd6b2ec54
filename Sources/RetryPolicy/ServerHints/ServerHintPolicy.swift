/// How a server's requested delay (Retry-After, `x-amz-retry-after`, `grpc-retry-pushback-ms`)
/// combines with the computed backoff. Hints are nanoseconds from the response
/// (``NormalizedError/retryAfter``); a negative hint means "do not retry" only with
/// ``negativeMeansStop``.
///
/// ```swift
/// var policy = RetryPolicy.offlineFirst
/// // urllib3: the hint replaces the backoff, cut to 6 h.
/// policy.serverHints = ServerHintPolicy(mode: .replace)
/// // AWS 2026: the backoff t, raised toward the hint by at most 5 s.
/// policy.serverHints = ServerHintPolicy(mode: .clampAboveBackoff(extra: .seconds(5)))
/// ```
public struct ServerHintPolicy: Sendable, Hashable, Codable {
    /// How a hint and the computed backoff make the delay.
    public enum Mode: Sendable, Hashable {
        /// Hints are not read (the AWS SDKs' pre-2026 standard mode, resilience4j and Polly without hooks).
        case ignore
        /// `max(backoff, hint)`: never sooner than the server asked (offline-first chapter, MS HTTP resilience).
        case atLeast
        /// Exactly the hint, replacing backoff (urllib3 `respect_retry_after_header`).
        case replace
        /// Exactly the hint, and the exponent restarts at the first retry's (gRPC A6 pushback,
        /// cenkalti/backoff v5 `RetryAfter`).
        case replaceAndReset
        /// `max(t, min(hint, t + extra))` with `t` the jittered backoff (AWS 2026 `x-amz-retry-after`, extra 5 s).
        case clampAboveBackoff(extra: Nanoseconds)

        /// `clampAboveBackoff` with `extra` as a `Duration` (truncated to whole nanoseconds).
        @_disfavoredOverload
        public static func clampAboveBackoff(extra: Duration) -> Mode { .clampAboveBackoff(extra: Time.nanoseconds(extra)) }
    }

    /// How a hint combines with the backoff.
    public var mode: Mode
    /// Hints longer than this are cut to it (urllib3: 6 h). Ignored for `clampAboveBackoff`.
    public var ceiling: Nanoseconds
    /// Hints longer than `ceiling` are dropped instead of cut, and backoff applies (Envoy's
    /// `rate_limited_retry_back_off`).
    public var discardAboveCeiling: Bool
    /// A negative hint means "do not retry" (gRPC pushback); otherwise negative hints are ignored.
    public var negativeMeansStop: Bool

    /// A hint policy; `ceiling` in nanoseconds. By default hints longer than 6 h (urllib3's cap) are
    /// cut to 6 h rather than dropped, and negative hints are ignored rather than stopping.
    public init(
        mode: Mode, ceiling: Nanoseconds = 6 * 3600 * Time.nanosecondsPerSecond,
        discardAboveCeiling: Bool = false, negativeMeansStop: Bool = false
    ) {
        self.mode = mode
        self.ceiling = ceiling
        self.discardAboveCeiling = discardAboveCeiling
        self.negativeMeansStop = negativeMeansStop
    }

    /// The same with the ceiling as a `Duration` (truncated to whole nanoseconds).
    @_disfavoredOverload
    public init(mode: Mode, ceiling: Duration, discardAboveCeiling: Bool = false, negativeMeansStop: Bool = false) {
        self.init(
            mode: mode, ceiling: Time.nanoseconds(ceiling), discardAboveCeiling: discardAboveCeiling,
            negativeMeansStop: negativeMeansStop)
    }

    /// Hints are not read: the backoff alone (the AWS SDKs' pre-2026 standard mode, most presets).
    public static let ignore = ServerHintPolicy(mode: .ignore)
    /// Never sooner than the server asked, hints cut to 6 h: the offline-first chapter's rule and
    /// ``RetryPolicy``'s default.
    public static let atLeast = ServerHintPolicy(mode: .atLeast)

    /// The delay to wait given the computed `backoff` and the server's `hint`, and whether the
    /// backoff exponent restarts. `nil` hint or an ignored hint returns `backoff`.
    @inlinable public func combine(backoff: Nanoseconds, hint: Nanoseconds?) -> (delay: Nanoseconds, resetExponent: Bool) {
        guard let raw = hint, raw >= 0 else { return (backoff, false) }
        if case .clampAboveBackoff(let extra) = mode {
            return (Swift.max(backoff, Swift.min(raw, Time.adding(backoff, extra))), false)
        }
        if raw > ceiling && discardAboveCeiling { return (backoff, false) }
        let h = Swift.min(raw, ceiling)
        switch mode {
        case .ignore: return (backoff, false)
        case .atLeast: return (Swift.max(backoff, h), false)
        case .replace: return (h, false)
        case .replaceAndReset: return (h, true)
        case .clampAboveBackoff: return (backoff, false)
        }
    }
}
