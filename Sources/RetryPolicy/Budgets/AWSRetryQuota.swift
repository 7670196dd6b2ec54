/// The AWS SDKs' retry quota in standard mode (botocore `retries/quota.py` and `standard.py`,
/// aws-sdk-go-v2 `aws/retry/standard.go`, smithy `token_bucket.rs`): a per-client bucket that
/// starts full; each retry takes a cost, or is refused when fewer tokens are left; a success
/// without retries returns `noRetryIncrement`, a success after retries returns what its last retry
/// took; a final failure returns nothing. Never above `capacity`. Costs and capacity are whole tokens.
///
/// ```swift
/// var policy = RetryPolicy.awsStandard
/// policy.budget = .aws(AWSRetryQuota(capacity: 1000, retryCost: 5, timeoutCost: 10, throttlingCost: 5))
/// ```
public struct AWSRetryQuota: Sendable, Hashable {
    /// Tokens in the bucket when full, and at start (500 in the SDKs' standard mode).
    public var capacity: Int
    /// The cost of a retry after any other retryable failure.
    public var retryCost: Int
    /// The cost of a retry after a timeout.
    public var timeoutCost: Int
    /// The cost of a retry after a throttling error.
    public var throttlingCost: Int
    /// Returned by a success that needed no retry.
    public var noRetryIncrement: Int

    /// A quota of `capacity` tokens (500, the SDKs' default), refunding `noRetryIncrement` (1) for a
    /// success without retries; every value in whole tokens, ≥ 0.
    public init(capacity: Int = 500, retryCost: Int, timeoutCost: Int, throttlingCost: Int, noRetryIncrement: Int = 1) {
        self.capacity = capacity
        self.retryCost = retryCost
        self.timeoutCost = timeoutCost
        self.throttlingCost = throttlingCost
        self.noRetryIncrement = noRetryIncrement
    }

    /// Pre-2026 standard mode: 500 tokens, 5 per retry, 10 per retry after a timeout
    /// (`RETRY_COST`, `TIMEOUT_RETRY_COST`, `NO_RETRY_INCREMENT` = 1).
    public static let standard = AWSRetryQuota(retryCost: 5, timeoutCost: 10, throttlingCost: 5)
    /// 2026 behaviour (`AWS_NEW_RETRIES_2026=true`): 14 per retry, 5 after a throttling error, no
    /// separate timeout cost.
    public static let standard2026 = AWSRetryQuota(retryCost: 14, timeoutCost: 14, throttlingCost: 5)

    /// The AWS SDK for Java 2.x's legacy mode, its default until the 2026 update
    /// (`DefaultRetryStrategy.Legacy`: `TOKEN_BUCKET_SIZE` 500, `DEFAULT_EXCEPTION_TOKEN_COST` 5
    /// for every retryable failure, timeouts included, `THROTTLE_EXCEPTION_TOKEN_COST` 0). A success
    /// returns `max(the last retry's cost, 1)` (`BaseRetryStrategy.releaseTokenBucketCapacity`):
    /// the same as here except after a throttled retry, whose success returns 1 here 0.
    public static let javaLegacy = AWSRetryQuota(retryCost: 5, timeoutCost: 5, throttlingCost: 0)

    /// What a retry after `failure` costs.
    @inlinable public func cost(of failure: FailureClass) -> Int {
        failure.isThrottling ? throttlingCost : (failure.isTimeout ? timeoutCost : retryCost)
    }

    @inlinable func acquire(_ s: inout RetryBudgetState, failure: FailureClass, record: inout OperationRecord) -> Bool {
        let c = Int64(cost(of: failure))
        guard s.tokens >= c else { return false }
        s.tokens &-= c
        record.lastRetryCost = Int32(clamping: c)
        return true
    }

    @inlinable func refund(_ s: inout RetryBudgetState, record: OperationRecord) {
        let back = record.attemptCount <= 1 ? Int64(noRetryIncrement) : Int64(record.lastRetryCost)
        s.tokens = Swift.min(Int64(capacity), s.tokens &+ back)
    }
}
