/// A token bucket refilled with time: at most `capacity` retries in a burst and `refillPerSecond`
/// on average. Each retry takes one token; first attempts take none.
public struct TokenBucket: Sendable, Hashable {
    /// Tokens when full (and at start).
    public var capacity: Double
    /// Tokens added per second, continuously.
    public var refillPerSecond: Double

    /// A bucket of `capacity` tokens (≥ 1 for any retry to pass; stored to a millionth of a token)
    /// that starts full and gains `refillPerSecond` tokens per second, ≥ 0.
    ///
    /// ```swift
    /// // Bursts of 10 retries, then one every 2 s on average.
    /// let budget = RetryBudget.tokenBucket(TokenBucket(capacity: 10, refillPerSecond: 0.5))
    /// ```
    public init(capacity: Double, refillPerSecond: Double) {
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
    }

    /// The capacity in millionths of a token, the unit of ``RetryBudgetState/tokens``.
    @inlinable public var capacityMicros: Int64 { Int64((capacity * 1e6).rounded(.down)) }

    /// Refills for the time since the last call, then takes one token if there is one.
    @inlinable func take(_ s: inout RetryBudgetState, now: Nanoseconds) -> Bool {
        if s.stamp != .min && now > s.stamp {
            // Millionths of a token per nanosecond = rate / 1000.
            let added = (Double(now &- s.stamp) * refillPerSecond / 1000).rounded(.down)
            s.tokens = added >= Double(capacityMicros) ? capacityMicros : Swift.min(capacityMicros, s.tokens &+ Int64(added))
        }
        if s.stamp == .min || now > s.stamp { s.stamp = now }
        guard s.tokens >= 1_000_000 else { return false }
        s.tokens &-= 1_000_000
        return true
    }
}
