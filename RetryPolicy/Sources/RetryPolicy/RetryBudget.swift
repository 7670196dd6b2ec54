/// A client-side limit on retries across operations to one host: a budget refuses a retry that
/// would push the client's retry traffic past its share, so retries cannot multiply an overload.
///
/// Every kind keeps its state in a ``RetryBudgetState`` inside the client's ``HostGuard``; the
/// ``RetryPolicy`` calls deposit, withdraw and refund it at the right moments, so callers never do.
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

/// The mutable side of a ``RetryBudget`` for one client and host. Which fields mean what depends
/// on the kind; they are public so that tests and apps can inspect (and, for the published
/// vectors, seed) a budget.
public struct RetryBudgetState: Sendable, Hashable, Codable {
    /// `perRun`: retries left. `grpc`: thousandths of a token. `aws`: quota tokens. `envoy`:
    /// retries outstanding. `tokenBucket`: millionths of a token.
    public var tokens: Int64
    /// `tokenBucket`: when it was last refilled.
    public var stamp: Nanoseconds
    /// `ratio`: requests (`a`) and retries (`b`) per bucket of `ttl / 10`.
    public var window: SlidingWindow

    public init(_ budget: RetryBudget) {
        stamp = .min
        window = SlidingWindow()
        switch budget {
        case .unlimited: tokens = .max
        case .perRun(let n): tokens = Int64(n)
        case .tokenBucket(let b): tokens = b.capacityMicros
        case .grpc(let g): tokens = g.maxMilliTokens
        case .aws(let q): tokens = Int64(q.capacity)
        case .ratio, .envoy: tokens = 0
        }
    }

    /// The first attempt of an operation starts: ratio budgets deposit, and Finagle fixes how many
    /// retries this request may take.
    @inlinable public mutating func requestStarted(_ budget: RetryBudget, record: inout OperationRecord, now: Nanoseconds) {
        if case .ratio(let f) = budget { f.deposit(&self, record: &record, now: now) }
    }

    /// A failed attempt, before the decision: gRPC takes a token for every failure that `counts`
    /// (a retryable code or a "don't retry" pushback), whether or not a retry follows.
    @inlinable public mutating func attemptFailed(_ budget: RetryBudget, counts: Bool) {
        if counts, case .grpc = budget { tokens = Swift.max(0, tokens &- 1000) }
    }

    /// The attempt an Envoy retry was granted for has ended: its slot is free again.
    @inlinable public mutating func release(_ budget: RetryBudget, record: inout OperationRecord) {
        guard record.holdsRetrySlot else { return }
        record.holdsRetrySlot = false
        if case .envoy = budget { tokens = Swift.max(0, tokens &- 1) }
    }

    /// Takes what one retry costs; false (and nothing taken) when the budget refuses it.
    ///
    /// - Parameters:
    ///   - failure: the failure being retried (AWS charges timeouts and throttling differently).
    ///   - active: attempts of this host in flight or waiting (Envoy's active + pending).
    @inlinable public mutating func tryAcquire(
        _ budget: RetryBudget, failure: FailureClass, record: inout OperationRecord, active: Int64, now: Nanoseconds
    ) -> Bool {
        switch budget {
        case .unlimited:
            record.lastRetryCost = 0
            return true
        case .perRun:
            guard tokens > 0 else { return false }
            tokens &-= 1
            record.lastRetryCost = 1
            return true
        case .tokenBucket(let b):
            return b.take(&self, now: now)
        case .grpc(let g):
            return tokens > g.thresholdMilliTokens
        case .aws(let q):
            return q.acquire(&self, failure: failure, record: &record)
        case .ratio(let f):
            return f.withdraw(&self, record: &record, now: now)
        case .envoy(let e):
            guard tokens < e.allowedConcurrentRetries(active: active) else { return false }
            tokens &+= 1
            record.holdsRetrySlot = true
            return true
        }
    }

    /// The operation succeeded: AWS refunds, gRPC adds `tokenRatio`.
    @inlinable public mutating func succeeded(_ budget: RetryBudget, record: OperationRecord) {
        switch budget {
        case .aws(let q): q.refund(&self, record: record)
        case .grpc(let g): tokens = Swift.min(g.maxMilliTokens, tokens &+ g.ratioMilliTokens)
        default: break
        }
    }
}
