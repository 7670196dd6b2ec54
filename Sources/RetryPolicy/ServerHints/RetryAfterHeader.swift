/// Turns the servers' delay headers into ``NormalizedError/retryAfter``: a delay in nanoseconds
/// from the moment the response arrived, or a negative value for "do not retry". Each returns nil
/// when the header is absent or unreadable, which the policy treats as "no hint".
///
/// ```swift
/// let now = Time.nanoseconds(wholeSeconds: 784_111_700)           // Unix time, for the date form
/// RetryAfterHeader.retryAfter("120", now: now)                      // 120 s
/// RetryAfterHeader.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now)  // 77 s
/// RetryAfterHeader.amzRetryAfter("1500")                            // 1.5 s
/// RetryAfterHeader.grpcPushback(["-1"])                             // -1: do not retry
/// let failure = NormalizedError.http(503, retryAfter: RetryAfterHeader.retryAfter("120", now: now))
/// ```
public enum RetryAfterHeader {
    /// HTTP `Retry-After` (RFC 9110 §10.2.3): `delay-seconds` (a non-negative decimal integer) or
    /// an HTTP-date. A date in the past gives 0 (urllib3 `parse_retry_after`); anything else nil.
    ///
    /// - Parameter now: the current time since the Unix epoch, for the date form.
    public static func retryAfter(_ value: String, now: Nanoseconds) -> Nanoseconds? {
        let v = String(trimmed(value))
        if !v.isEmpty && v.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            // More digits than Int64 holds: "very long", capped by the policy's ceiling.
            return Int64(v).map { Time.nanoseconds(wholeSeconds: $0) } ?? .max
        }
        return HTTPDate.parse(v, nowSeconds: now / Time.nanosecondsPerSecond).map { delay(untilUnixSeconds: $0, now: now) }
    }

    /// ``retryAfter(_:now:)`` with `now` as the `Duration` since the Unix epoch.
    @_disfavoredOverload
    public static func retryAfter(_ value: String, now: Duration) -> Nanoseconds? {
        retryAfter(value, now: Time.nanoseconds(now))
    }

    /// The delay from `now` until a Unix time in whole seconds; 0 if it has passed.
    static func delay(untilUnixSeconds s: Int64, now: Nanoseconds) -> Nanoseconds {
        let (d, overflow) = Time.nanoseconds(wholeSeconds: s).subtractingReportingOverflow(now)
        return overflow ? (now < 0 ? .max : 0) : Swift.max(0, d)
    }

    /// AWS `x-amz-retry-after` (2026 standard mode): integer milliseconds; negative or invalid
    /// values are ignored (nil).
    public static func amzRetryAfter(_ value: String) -> Nanoseconds? {
        guard let ms = Int64(String(trimmed(value))), ms >= 0 else { return nil }
        return Time.nanoseconds(milliseconds: ms)
    }

    /// gRPC `grpc-retry-pushback-ms` (gRFC A6), given every value of the trailer: none → nil (no
    /// pushback); exactly one non-negative int32 → that many milliseconds; a negative or
    /// unparseable value, or several values (grpc-go) → -1, "do not retry".
    public static func grpcPushback(_ values: [String]) -> Nanoseconds? {
        guard !values.isEmpty else { return nil }
        guard values.count == 1, let ms = Int32(String(trimmed(values[0]))), ms >= 0 else { return -1 }
        return Int64(ms) * 1_000_000
    }

    /// A `UNIX_TIMESTAMP` reset header (Envoy's `rate_limited_retry_back_off`, e.g.
    /// `X-RateLimit-Reset`): whole seconds since the Unix epoch, as a delay from `now`; past → 0.
    public static func resetTimestamp(_ value: String, now: Nanoseconds) -> Nanoseconds? {
        guard let s = Int64(String(trimmed(value))), s >= 0 else { return nil }
        return delay(untilUnixSeconds: s, now: now)
    }

    /// ``resetTimestamp(_:now:)`` with `now` as the `Duration` since the Unix epoch.
    @_disfavoredOverload
    public static func resetTimestamp(_ value: String, now: Duration) -> Nanoseconds? {
        resetTimestamp(value, now: Time.nanoseconds(now))
    }

    static func trimmed(_ s: String) -> Substring {
        var v = Substring(s)
        while let c = v.first, c == " " || c == "\t" { v.removeFirst() }
        while let c = v.last, c == " " || c == "\t" { v.removeLast() }
        return v
    }
}
