/// A budget that allows retries as a ratio of requests: Finagle's `RetryBudget`
/// (`finagle-core/.../service/RetryBudget.scala`, `util-core/.../TokenBucket.scala`; the blog post
/// "Retry Budgets", 2016) and, with no reserve, the SRE book's "retries below 10 % of requests"
/// (ch. 22).
///
/// Finagle's integer leaky bucket: every request deposits 1000 (0 when `percentCanRetry` is 0),
/// every retry withdraws `floor(1000 / percentCanRetry)` (1 when 0), deposits and withdrawals expire
/// after `ttl` (a window of 10 slices) and a constant reserve of
/// `minRetriesPerSecond × ttl × withdrawal` is always there. A retry is allowed iff
/// `window sum + reserve ≥ withdrawal`. With `maxRetriesPerRequest`, a request may be retried at
/// most `ceil(maxRetriesPerRequest × balance)` times, balance taken when it starts (Finagle's
/// `RequeueFilter`, `MaxRequeuesPerReq` = 0.2).
public struct FinagleRetryBudget: Sendable, Hashable {
    /// How long deposits and withdrawals count. Finagle requires [1 s, 60 s].
    public var ttl: Nanoseconds
    /// Retries per second allowed whatever the traffic.
    public var minRetriesPerSecond: Double
    /// Retries allowed as a fraction of requests (0.2 = 20 %). Finagle allows [0, 1000].
    public var percentCanRetry: Double
    /// A cap on one request's retries as a fraction of the balance when it starts; 0 for none.
    public var maxRetriesPerRequest: Double

    /// A budget over `ttl` nanoseconds (Finagle requires 1…60 s) that reserves `minRetriesPerSecond`
    /// and allows `percentCanRetry` (a fraction: 0.2 = 20 %) of requests as retries; with
    /// `maxRetriesPerRequest` > 0, each request may take at most that fraction of the balance.
    public init(ttl: Nanoseconds, minRetriesPerSecond: Double, percentCanRetry: Double, maxRetriesPerRequest: Double = 0) {
        self.ttl = ttl
        self.minRetriesPerSecond = minRetriesPerSecond
        self.percentCanRetry = percentCanRetry
        self.maxRetriesPerRequest = maxRetriesPerRequest
    }

    /// The same with `ttl` as a `Duration` (truncated to whole nanoseconds).
    @_disfavoredOverload
    public init(ttl: Duration, minRetriesPerSecond: Double, percentCanRetry: Double, maxRetriesPerRequest: Double = 0) {
        self.init(
            ttl: Time.nanoseconds(ttl), minRetriesPerSecond: minRetriesPerSecond, percentCanRetry: percentCanRetry,
            maxRetriesPerRequest: maxRetriesPerRequest)
    }

    /// `RetryBudget()`: ttl 10 s, 10 retries per second, 20 %, as used by Finagle's requeues
    /// (at most 0.2 × balance per request).
    public static let finagleDefault = FinagleRetryBudget(
        ttl: 10 * Time.nanosecondsPerSecond, minRetriesPerSecond: 10, percentCanRetry: 0.2, maxRetriesPerRequest: 0.2)
    /// The SRE book's per-client budget: retries below 10 % of requests, no reserve. The book gives
    /// no window; this uses its adaptive-throttling window, 2 minutes.
    public static let sreBook = FinagleRetryBudget(
        ttl: 120 * Time.nanosecondsPerSecond, minRetriesPerSecond: 0, percentCanRetry: 0.1)

    /// Added per request.
    @inlinable public var depositAmount: Int64 { percentCanRetry == 0 ? 0 : 1000 }
    /// Taken per retry.
    @inlinable public var withdrawalAmount: Int64 {
        percentCanRetry == 0 ? 1 : Swift.max(1, Int64((1000 / percentCanRetry).rounded(.down)))
    }
    /// Always available: `minRetriesPerSecond × ttl × withdrawal`.
    @inlinable public var reserve: Int64 {
        Int64((minRetriesPerSecond * Time.seconds(ttl) * Double(withdrawalAmount)).rounded(.down))
    }

    /// The bucket's count now: the window's deposits less its withdrawals, plus the reserve.
    @inlinable public func count(_ s: inout RetryBudgetState, now: Nanoseconds) -> Int64 {
        let (requests, retries) = s.window.sums(now: now, window: ttl)
        return requests &* depositAmount &- retries &* withdrawalAmount &+ reserve
    }

    /// Retries available now (Finagle's `balance`).
    @inlinable public func balance(_ s: inout RetryBudgetState, now: Nanoseconds) -> Int64 {
        Swift.max(0, count(&s, now: now)) / withdrawalAmount
    }

    @inlinable func deposit(_ s: inout RetryBudgetState, record: inout OperationRecord, now: Nanoseconds) {
        s.window.add(a: 1, now: now, window: ttl)
        if maxRetriesPerRequest > 0 {
            let allowance = (maxRetriesPerRequest * Double(balance(&s, now: now))).rounded(.up)
            record.retryAllowance = Int32(clamping: Int64(allowance))
        }
    }

    @inlinable func withdraw(_ s: inout RetryBudgetState, record: inout OperationRecord, now: Nanoseconds) -> Bool {
        if maxRetriesPerRequest > 0 && record.attemptCount &- 1 >= record.retryAllowance { return false }
        guard count(&s, now: now) >= withdrawalAmount else { return false }
        s.window.add(b: 1, now: now, window: ttl)
        record.lastRetryCost = 1
        return true
    }
}
