/// Envoy's limit on retries outstanding at once, per cluster and priority
/// (`envoy/config/cluster/v3/circuit_breaker.proto`, `resource_manager_impl.h` `RetryBudgetImpl`):
/// `max(budget_percent × (active + pending requests), min_retry_concurrency)`. A retry holds its
/// slot from the decision to retry until its attempt ends. Without a `retry_budget` Envoy uses
/// the fixed `max_retries` threshold (3): the same rule with `percent` 0 and `minConcurrency` 3.
public struct EnvoyRetryBudget: Sendable, Hashable {
    /// A fraction of active + pending requests (Envoy's `budget_percent` / 100).
    public var percent: Double
    /// Retries allowed at once whatever the traffic.
    public var minConcurrency: Int

    /// A `retry_budget` (or, with `percent` 0, the fixed `max_retries` threshold).
    ///
    /// - Parameters:
    ///   - percent: a fraction in [0, 1] (Envoy's `budget_percent` 20 % is 0.2), not a percentage.
    ///   - minConcurrency: retries allowed at once whatever the traffic, ≥ 0.
    public init(percent: Double, minConcurrency: Int) {
        self.percent = percent
        self.minConcurrency = minConcurrency
    }

    /// `retry_budget` with its defaults: 20 %, at least 3.
    public static let retryBudget = EnvoyRetryBudget(percent: 0.2, minConcurrency: 3)
    /// The default `max_retries: 3` threshold, when no `retry_budget` is set.
    public static let maxRetries = EnvoyRetryBudget(percent: 0, minConcurrency: 3)

    /// Retries allowed at once with `active` requests active or pending (truncated, as Envoy's
    /// conversion to an integer count is).
    @inlinable public func allowedConcurrentRetries(active: Int64) -> Int64 {
        Swift.max(Int64((percent * Double(Swift.max(0, active))).rounded(.down)), Int64(minConcurrency))
    }
}
