import RetryPolicy
import Testing

/// Server delay headers: RFC 9110 §10.2.3 `Retry-After` (seconds or HTTP-date, §5.6.7),
/// AWS `x-amz-retry-after` (§1.2), gRPC `grpc-retry-pushback-ms` (§2), Envoy reset timestamps (§4.1).
struct RetryAfterTests {
    /// 1994-11-06 08:49:37 UTC, RFC 9110's example instant.
    static let example: Int64 = 784_111_777

    @Test(
        "the three HTTP-date forms of RFC 9110 §5.6.7 name the same instant",
        arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func forms(_ text: String) {
        #expect(HTTPDate.parse(text, nowSeconds: 1_790_000_000) == Self.example)
    }

    @Test(
        "malformed dates are rejected",
        arguments: [
            "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT", "06 Nov 1994", "", "Sun, 06 Nov 1994 08:49:37 PST"
        ])
    func malformed(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("RFC 850 two-digit years: more than 50 years ahead means the previous century")
    func century() {
        let now2026 = HTTPDate.daysFromCivil(year: 2026, month: 1, day: 1) * 86_400
        let y2070 = HTTPDate.parse("Monday, 01-Jan-70 00:00:00 GMT", nowSeconds: now2026)
        #expect(y2070 == HTTPDate.daysFromCivil(year: 2070, month: 1, day: 1) * 86_400)
        let y1977 = HTTPDate.parse("Saturday, 01-Jan-77 00:00:00 GMT", nowSeconds: now2026)
        #expect(y1977 == HTTPDate.daysFromCivil(year: 1977, month: 1, day: 1) * 86_400)
    }

    @Test("Retry-After: delay-seconds, a future date, a past date (0, as urllib3), garbage (nil)")
    func retryAfter() {
        let now = Self.example * second
        #expect(RetryAfterHeader.retryAfter("120", now: now) == 120 * second)
        #expect(RetryAfterHeader.retryAfter(" 0 ", now: now) == 0)
        #expect(RetryAfterHeader.retryAfter("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == 30 * second)
        #expect(RetryAfterHeader.retryAfter("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
        #expect(RetryAfterHeader.retryAfter("-5", now: now) == nil)
        #expect(RetryAfterHeader.retryAfter("soon", now: now) == nil)
        #expect(RetryAfterHeader.retryAfter("99999999999999999999999", now: now) == .max)
    }

    @Test("x-amz-retry-after: integer milliseconds; negative or invalid ignored")
    func amz() {
        #expect(RetryAfterHeader.amzRetryAfter("1500") == 1500 * ms)
        #expect(RetryAfterHeader.amzRetryAfter("-1") == nil)
        #expect(RetryAfterHeader.amzRetryAfter("invalid") == nil)
    }

    @Test("grpc-retry-pushback-ms: absent → none; one int32 ≥ 0 → exactly it; negative, garbage or several → -1 (stop)")
    func pushback() {
        #expect(RetryAfterHeader.grpcPushback([]) == nil)
        #expect(RetryAfterHeader.grpcPushback(["250"]) == 250 * ms)
        #expect(RetryAfterHeader.grpcPushback(["-1"]) == -1)
        #expect(RetryAfterHeader.grpcPushback(["abc"]) == -1)
        #expect(RetryAfterHeader.grpcPushback(["1", "2"]) == -1)
        #expect(RetryAfterHeader.grpcPushback(["4294967296"]) == -1)
    }

    @Test("UNIX_TIMESTAMP reset headers (Envoy X-RateLimit-Reset): seconds since the epoch, as a delay")
    func reset() {
        #expect(RetryAfterHeader.resetTimestamp("1000", now: 990 * second) == 10 * second)
        #expect(RetryAfterHeader.resetTimestamp("1000", now: 2000 * second) == 0)
    }

    @Test("gRPC pushback: exactly the server's delay, then the exponent restarts; a negative one stops (§2, §14.4)")
    func grpcPolicy() {
        var driver = Driver(.grpc, r: 0.5)
        let d = driver.run([.http(503), .http(503, retryAfter: RetryAfterHeader.grpcPushback(["700"])), .http(503)])
        // 100 ms (r = 0.5), then exactly 700 ms, then 100 ms again (exponent reset).
        #expect(d == [.retry(at: 100 * ms), .retry(at: 800 * ms), .retry(at: 900 * ms)])
        var stopper = Driver(.grpc)
        #expect(stopper.run([.http(503, retryAfter: RetryAfterHeader.grpcPushback(["-1"]))]) == [.stop(.serverSaidStop)])
        // The stopping pushback still takes a throttling token (grpc-go).
        #expect(stopper.host.budget.tokens == 9000)
    }

    @Test("urllib3: Retry-After replaces the backoff, capped at 6 h (§9.2)")
    func urllib3() {
        var driver = Driver(.urllib3)
        let d = driver.run([.http(503, retryAfter: 7 * second), .http(429, retryAfter: 10 * 3600 * second)])
        #expect(d == [.retry(at: 7 * second), .retry(at: 7 * second + 6 * 3600 * second)])
    }

    @Test("Envoy rate-limited backoff discards hints above its 300 s maximum instead of capping them (§4.1, §14.5)")
    func discard() {
        let h = ServerHintPolicy(mode: .replace, ceiling: 300 * second, discardAboveCeiling: true)
        #expect(h.combine(backoff: 20 * ms, hint: 120 * second).delay == 120 * second)
        #expect(h.combine(backoff: 20 * ms, hint: 301 * second).delay == 20 * ms)
    }
}
