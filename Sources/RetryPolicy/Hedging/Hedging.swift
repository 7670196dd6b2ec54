/// Hedged requests: more copies of an attempt sent while the first is still out, the first answer
/// wins (The Tail at Scale, 2013; gRPC's `hedgingPolicy`, A6; Finagle's backup requests).
///
/// The first copy goes out at once; while no copy has succeeded, another follows every ``delay``
/// until ``maxAttempts`` copies are out. A retryable failure (the policy's classifier: gRPC's
/// non-fatal status codes) sends the next copy at once; any other failure ends the operation. The
/// first success ends it and cancels the rest: a copy still queued leaves the queue, one in
/// service finishes as wasted work. Every copy is an attempt: it counts in the amplification and
/// asks the policy's budget or throttle, so a throttled policy stops hedging, as gRPC's does.
///
/// ```swift
/// // Up to 3 copies, the next after the 95th percentile of the last 30 s of latencies.
/// var policy = RetryPolicy.grpc
/// policy.hedging = Hedging(delay: .percentile(0.95, window: 30_000_000_000), maxAttempts: 3)
/// ```
public struct Hedging: Sendable, Hashable, Codable {
    /// When the next copy goes out while none has answered.
    public enum Delay: Sendable, Hashable {
        /// A fixed delay, nanoseconds (gRPC's `hedgingDelay`).
        case fixed(Nanoseconds)
        /// The quantile `q` (0 < q < 1) of the copies' latencies over the last `window`
        /// nanoseconds, kept in a ``LatencyWindow`` as Finagle's backup requests keep theirs:
        /// each successful copy's latency, each timed-out copy's timeout, and each copy a success
        /// supersedes its time out so far (failures, fast, are left out). Until the window holds
        /// ``LatencyWindow/minimumCount(_:)`` latencies no copy but the first goes out.
        case percentile(Double, window: Nanoseconds)
    }

    /// The delay between copies.
    public var delay: Delay
    /// Copies per operation at most, the first included: 2 to 5 (gRPC's `maxAttempts`, capped at 5).
    public var maxAttempts: Int

    /// Hedging with `delay` and at most `maxAttempts` copies (clamped to 2…5).
    public init(delay: Delay, maxAttempts: Int) {
        self.delay = delay
        self.maxAttempts = Swift.min(5, Swift.max(2, maxAttempts))
    }

    /// gRPC's cap on copies.
    public static let maxCopies = 5

    /// The window a percentile delay reads (``Delay/percentile(_:window:)``), empty from `now`;
    /// nil for a fixed delay, which reads none.
    public func latencyWindow(now: Nanoseconds = 0) -> LatencyWindow? {
        guard case .percentile(_, let window) = delay else { return nil }
        return LatencyWindow(window: window, now: now)
    }

    /// The delay before the next copy at `now`, nanoseconds: the fixed one, or the quantile of
    /// `latencies` (``latencyWindow(now:)``'s), nil until it holds enough.
    public func currentDelay(latencies: inout LatencyWindow?, now: Nanoseconds) -> Nanoseconds? {
        switch delay {
        case .fixed(let d): d
        case .percentile(let q, _): latencies?.quantile(q, now: now)
        }
    }
}
