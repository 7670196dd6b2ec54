/// The throttle's counts for one client and host: `a` requests, `b` accepts.
public struct AdaptiveThrottleState: Sendable, Hashable, Codable {
    /// Requests (`a`) and accepts (`b`) per bucket of ``AdaptiveThrottle/window`` / 10.
    public var window = SlidingWindow()

    /// No requests and no accepts yet: the throttle rejects nothing.
    public init() {}

    /// Counts a request about to be sent and decides whether to reject it locally. Draws one
    /// random value only when the probability is above 0.
    @inlinable public mutating func reject<R: UniformSource & ~Copyable>(
        _ t: AdaptiveThrottle, now: Nanoseconds, random: inout R
    ) -> Bool {
        let (requests, accepts) = window.sums(now: now, window: t.window)
        let p = AdaptiveThrottle.rejectionProbability(requests: Double(requests), accepts: Double(accepts), k: t.k)
        window.add(a: 1, now: now, window: t.window)
        return p > 0 && random.nextUniform() < p
    }

    /// Counts an answer the backend accepted.
    @inlinable public mutating func accepted(_ t: AdaptiveThrottle, now: Nanoseconds) {
        window.add(b: 1, now: now, window: t.window)
    }
}
