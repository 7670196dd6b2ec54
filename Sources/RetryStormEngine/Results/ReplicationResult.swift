import GSLSupport
import RetryPolicy

/// Everything one replication produced: the time series and the summary metrics.
public struct ReplicationResult: Sendable {
    public let replication: Int
    /// Width of a bucket, nanoseconds.
    public let bucket: Int64
    /// Per bucket, per ``Counter``: `counts[b * Counter.allCases.count + counter.rawValue]`.
    public let counts: [Int64]
    /// Queue length at the end of each bucket.
    public let queueAtEnd: [Int64]
    /// Mean capacity over each bucket, requests per second.
    public let capacityPerSecond: [Double]
    public let summary: Summary
    /// Times-to-success at the quantiles 0, 0.001, …, 1 (1001 values, seconds); empty if nothing succeeded.
    public let ttsQuantiles: [Double]
    /// Set when `--check-invariants` found a broken conservation law.
    public let invariantViolation: String?
    /// The replication stopped at ``EngineOptions/maxEvents`` before its horizon: its figures are
    /// incomplete and must not be reported.
    public let eventLimitReached: Bool
    /// Per population, in the scenario's order (empty without populations).
    public var populations: [PopulationResult] = []

    public var buckets: Int { queueAtEnd.count }

    /// The count of `c` in bucket `b`.
    public func count(_ c: Counter, bucket b: Int) -> Int64 { counts[b * Counter.allCases.count + c.rawValue] }
}
