/// The server's rate limiter (`server.rate_limit`): a token bucket of `burst` tokens refilled at
/// `rate` per second; a request that finds less than one token is answered 429 without being
/// processed. Off (every request passes) without a rate limit.
struct RateLimiter {
    let limit: Scenario.RateLimit?
    private var tokens: Double
    /// When `tokens` was last brought up to date, nanoseconds.
    private var updated: Int64 = 0

    init(_ limit: Scenario.RateLimit?) {
        self.limit = limit
        tokens = limit?.burst ?? 0
    }

    /// Whether a request arriving at `now` (at or after every earlier call's) gets a token; takes it.
    @inline(__always) mutating func admits(now: Int64) -> Bool {
        guard let limit else { return true }
        tokens = min(limit.burst, tokens + Double(now &- updated) / 1e9 * limit.rate)
        updated = now
        if tokens < 1 { return false }
        tokens -= 1
        return true
    }
}
