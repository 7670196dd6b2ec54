/// Client-side adaptive throttling (Site Reliability Engineering, ch. 21 "Handling Overload"):
/// each client counts, over the last 2 minutes, the `requests` it attempted (counted before
/// sending, rejected ones included) and the `accepts` the backend answered without rejecting for
/// overload, and rejects a new request locally with probability
/// `p = max(0, (requests − K·accepts) / (requests + 1))`. K = 2 lets clients send up to twice what
/// the backend accepts. Finagle's `NackAdmissionFilter` applies the same rule to an EMA.
///
/// Every attempt passes through it, first attempts and retries alike; a rejected attempt stops
/// the operation as ``StopReason/throttledLocally``.
///
/// ```swift
/// var policy = RetryPolicy.grpc
/// policy.throttle = .sreBook                                   // K = 2 over 2 minutes
/// policy.throttle = AdaptiveThrottle(k: 1.5, window: .seconds(60))  // more aggressive, shorter memory
/// ```
public struct AdaptiveThrottle: Sendable, Hashable, Codable {
    /// The multiplier K (2 in the book; lower is more aggressive).
    public var k: Double
    /// The window the counts cover (2 minutes in the book), in 10 buckets.
    public var window: Nanoseconds

    /// A throttle with multiplier `k` (> 0; default 2) over `window` nanoseconds (> 0; default
    /// 2 minutes), the book's values.
    public init(k: Double = 2, window: Nanoseconds = 120 * Time.nanosecondsPerSecond) {
        self.k = k
        self.window = window
    }

    /// The same with the window as a `Duration` (truncated to whole nanoseconds).
    @_disfavoredOverload
    public init(k: Double = 2, window: Duration) {
        self.init(k: k, window: Time.nanoseconds(window))
    }

    /// The book's K = 2 over 2 minutes.
    public static let sreBook = AdaptiveThrottle()

    /// `max(0, (requests − K·accepts) / (requests + 1))`.
    @inlinable public static func rejectionProbability(requests: Double, accepts: Double, k: Double) -> Double {
        Swift.max(0, (requests - k * accepts) / (requests + 1))
    }

    /// Whether the backend accepted an attempt that failed with `error` (classified `c`): it
    /// answered, and not with a rejection for overload (429, 503, a throttling or overload code,
    /// an unprocessed refusal).
    @inlinable @inline(__always) public static func accepted(_ error: NormalizedError, _ c: FailureClass) -> Bool {
        guard error.status != nil, !error.unprocessed, error.status != 503 else { return false }
        return c.kind != .throttled && c.kind != .overloaded
    }
}
