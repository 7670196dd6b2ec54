/// A client-side limit on retries across operations to one host: a budget refuses a retry that
/// would push the client's retry traffic past its share, so retries cannot multiply an overload.
///
/// Every kind keeps its state in a ``RetryBudgetState`` inside the client's ``HostGuard``; the
/// ``RetryPolicy`` calls deposit, withdraw and refund it at the right moments, so callers never do.
/// A budget that refuses a retry stops the operation as ``StopReason/budgetExhausted``.
///
/// ```swift
/// // The SRE book's "retries below 10 % of requests" on top of the offline-first preset.
/// var policy = RetryPolicy.offlineFirst
/// policy.budget = .ratio(.sreBook)
///
/// // Or gRPC's retry throttling, or the AWS SDKs' quota, with their published defaults.
/// policy.budget = .grpc(.a6Example)
/// policy.budget = .aws(.standard)
/// ```
public enum RetryBudget: Sendable, Hashable, Codable {
    /// No limit beyond each operation's own attempts.
    case unlimited
    /// At most `retries` retries per run (a sync session, an app launch): the offline-first
    /// chapter's "retry budget per sync run". A restart begins a new run.
    case perRun(retries: Int)
    /// A bucket refilled with time: each retry takes a token.
    case tokenBucket(TokenBucket)
    /// gRPC A6 `retryThrottling`: failures take a token, successes return `tokenRatio`.
    case grpc(GRPCRetryThrottling)
    /// The AWS SDKs' retry quota (standard mode, pre-2026 or 2026 costs), with refunds on success.
    case aws(AWSRetryQuota)
    /// A ratio of requests: Finagle's `RetryBudget` (20 % plus 10 retries/s) or the SRE book's 10 %.
    case ratio(FinagleRetryBudget)
    /// Envoy's `retry_budget` / `max_retries`: a limit on retries outstanding at once.
    case envoy(EnvoyRetryBudget)

    /// The budget kind's scenario spelling (`policy.budget.kind`), which names the library
    /// defaults a budget equals (`aws-2026`, `finagle`); policy files name the structure instead.
    @_spi(Simulation) public var kindName: String {
        switch self {
        case .unlimited: "unlimited"
        case .perRun: "per-run"
        case .tokenBucket: "token-bucket"
        case .grpc: "grpc"
        case .aws(let q): q == .standard2026 ? "aws-2026" : "aws"
        case .ratio(let f): f == .finagleDefault ? "finagle" : "ratio"
        case .envoy: "envoy"
        }
    }
}
