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

    /// The state `budget` starts in: full for the buckets and quotas (`perRun`'s retries, gRPC's
    /// `maxTokens`, AWS's `capacity`, a token bucket's `capacity`), empty windows and nothing
    /// outstanding for `ratio` and `envoy`; `unlimited` holds `Int64.max` and is never read.
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

    /// The attempt an Envoy retry was granted for has ended: its slot is free again (a hedged
    /// operation's copies free all the slots they took, ``OperationRecord/lastRetryCost``).
    @inlinable public mutating func release(_ budget: RetryBudget, record: inout OperationRecord) {
        guard record.holdsRetrySlot else { return }
        record.holdsRetrySlot = false
        if case .envoy = budget { tokens = Swift.max(0, tokens &- Int64(Swift.max(1, record.lastRetryCost))) }
        record.lastRetryCost = 0
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
            // Slots held: one for a retry, one per copy out for a hedged operation.
            record.lastRetryCost = record.holdsRetrySlot ? record.lastRetryCost &+ 1 : 1
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
