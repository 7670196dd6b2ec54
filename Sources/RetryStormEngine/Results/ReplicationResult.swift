import GSLSupport
import RetryPolicy

/// Everything one replication produced: the time series and the summary metrics.
package struct ReplicationResult: Sendable {
    package let replication: Int
    /// Width of a bucket, nanoseconds.
    package let bucket: Int64
    /// Per bucket, per ``Counter``: `counts[b * Counter.allCases.count + counter.rawValue]`.
    package let counts: [Int64]
    /// Queue length at the end of each bucket.
    package let queueAtEnd: [Int64]
    /// Mean capacity over each bucket, requests per second.
    package let capacityPerSecond: [Double]
    package let summary: Summary
    /// Times-to-success at the quantiles 0, 0.001, …, 1 (1001 values, seconds); empty if nothing succeeded.
    package let ttsQuantiles: [Double]
    /// Set when `--check-invariants` found a broken conservation law.
    package let invariantViolation: String?
    /// The replication stopped at ``EngineOptions/maxEvents`` before its horizon: its figures are
    /// incomplete and must not be reported.
    package let eventLimitReached: Bool
    /// Per population, in the scenario's order (empty without populations).
    package var populations: [PopulationResult] = []
    /// The replication stopped because a call graph outgrew ``EngineOptions/graphMemory``: its
    /// figures are incomplete and must not be reported.
    package var memoryLimitReached = false
    /// Per service of a call graph, in the scenario's order (empty for one hop).
    package var services: [ServiceResult] = []
    /// Per edge of a call graph (each service's `calls[]` entries, in the scenario's order of
    /// services, then of calls; empty for one hop).
    package var edges: [EdgeResult] = []
    /// The incident window's buckets (``Incident``): nil without a trigger.
    package var incident: Range<Int>?

    package var buckets: Int { queueAtEnd.count }

    /// The count of `c` in bucket `b`.
    package func count(_ c: Counter, bucket b: Int) -> Int64 { counts[b * Counter.allCases.count + c.rawValue] }
}
