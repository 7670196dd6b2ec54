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

/// The summary metrics of one replication (one row of summary.csv).
public struct Summary: Sendable, Hashable {
    public var clients: Int
    public var operations: Int64
    /// First attempts + retries.
    public var attempts: Int64
    public var firstAttempts: Int64
    public var retries: Int64
    /// attempts / operations.
    public var amplification: Double
    public var succeeded: Int64
    public var gaveUp: Int64
    public var blocked: Int64
    /// Operations still going at the horizon.
    public var unfinished: Int64
    public var failed: Int64
    public var timedOut: Int64
    public var rejected: Int64
    public var offered: Int64
    public var served: Int64
    public var wasted: Int64
    public var expired: Int64
    /// Attempts that failed for lack of network.
    public var offline: Int64
    /// Writes applied more than once (operations without idempotency keys).
    public var duplicates: Int64
    /// Status queries sent to reconcile ambiguous failures.
    public var queries: Int64
    /// Operations found applied by a status query.
    public var confirmed: Int64
    /// Attempts in flight abandoned by an app restart.
    public var abandoned: Int64
    /// Retries the retry budget refused.
    public var budgetDenied: Int64
    /// Attempts the policy held back before sending (breaker, concurrency, throttle).
    public var heldBack: Int64
    /// Mean time a request waited in the queue before service, seconds, by Little's law
    /// (∫ queue length dt / requests admitted); NaN when the model has no queue.
    public var waitMeanSeconds: Double
    /// The largest number of attempts that reached the server in one whole second.
    public var peakOfferedPerSecond: Int64
    /// peakOfferedPerSecond / nominal capacity.
    public var peakLoadRatio: Double
    /// Time-to-success statistics, seconds (NaN when nothing succeeded).
    public var ttsMean: Double
    public var ttsP50: Double
    public var ttsP90: Double
    public var ttsP99: Double
    public var ttsP999: Double
    public var ttsMax: Double
    /// Seconds from the start of the trigger (``Scenario/trigger``: a capacity disturbance or a
    /// load spike; t = 0 without one) until the start of
    /// the first bucket after which no attempt times out, is rejected or expires: how long the
    /// incident hurt clients. +inf if that never happens before the horizon; 0 if nothing ever failed.
    public var recoverySeconds: Double
    /// wasted / served.
    public var wastedFraction: Double
    /// Events processed.
    public var events: Int64
    /// When the simulation stopped: the horizon, or the last event if nothing was left to do.
    public var simEndSeconds: Double
    /// The time-average number of requests waiting in the queue.
    public var meanQueueLength: Double
    /// gaveUp / operations and blocked / operations (NaN without operations).
    public var gaveUpFraction: Double
    public var blockedFraction: Double
    /// Time-to-success quantiles and the share that gave up, over the operations that started in
    /// the incident window (see ``Incident``), seconds and a fraction; NaN without a trigger or
    /// without such operations.
    public var incidentTTSP50: Double
    public var incidentTTSP99: Double
    public var incidentGaveUpFraction: Double
    /// The largest bucket's offered load over that bucket's capacity (buckets with capacity; NaN if none).
    public var peakOverload: Double
    /// 1 when clients stopped failing before the horizon (``recoverySeconds`` finite), else 0.
    public var recovered: Double
    /// Seconds from the trigger's end (capacity back at nominal, load back at its base) until the recovery; 0 when it
    /// recovered before the trigger ended, +inf when never, NaN without a trigger.
    public var recoveryAfterTriggerSeconds: Double
}

/// The incident window of a replication: from the first trigger (a capacity drop, a brownout, the
/// first dip, a rise of the load above its base) to the later of the recovery and the trigger's end, in whole buckets; to the horizon
/// if it never recovered. Metrics over the operations started in it do not depend on how much quiet
/// time is simulated after it.
public struct Incident: Sendable, Hashable {
    /// First and one-past-last bucket of the window.
    public var buckets: Range<Int>

    /// The window for a run whose trigger starts at `start` and ends at `end` (ns), whose first
    /// healthy bucket is `healthy` (nil: never healthy again), with `count` buckets of `width` ns.
    public init(start: Int64, end: Int64, healthy: Int?, count: Int, width: Int64) {
        let first = min(count, Int(start / max(1, width)))
        // The trigger's last bucket is part of it: the bucket that holds `end - 1`.
        let triggerEnd = min(count, Int((max(start, end) - 1) / max(1, width)) + 1)
        let last = healthy.map { max($0, triggerEnd) } ?? count
        buckets = first..<max(first, min(count, last))
    }
}

/// One population's share of a replication's results.
public struct PopulationResult: Sendable, Hashable {
    public var name: String
    public var clients: Int
    public var operations: Int64
    /// Operations that succeeded or were confirmed applied.
    public var succeeded: Int64
    public var gaveUp: Int64
    /// First attempts and retries.
    public var attempts: Int64
    /// Seconds; NaN when none succeeded.
    public var ttsP50: Double
    public var ttsP99: Double
    /// As ``Summary/incidentTTSP50`` and the others, for this population's operations (NaN without a trigger).
    public var incidentTTSP50: Double
    public var incidentTTSP99: Double
    public var incidentGaveUpFraction: Double
    /// Requests of this population that reached the server, per time bucket.
    public var offered: [Int64]

    public init(name: String, clients: Int, operations: Int64, succeeded: Int64, gaveUp: Int64, attempts: Int64,
                ttsP50: Double, ttsP99: Double, incidentTTSP50: Double, incidentTTSP99: Double,
                incidentGaveUpFraction: Double, offered: [Int64]) {
        self.name = name
        self.clients = clients
        self.operations = operations
        self.succeeded = succeeded
        self.gaveUp = gaveUp
        self.attempts = attempts
        self.ttsP50 = ttsP50
        self.ttsP99 = ttsP99
        self.incidentTTSP50 = incidentTTSP50
        self.incidentTTSP99 = incidentTTSP99
        self.incidentGaveUpFraction = incidentGaveUpFraction
        self.offered = offered
    }

    /// Attempts per operation (NaN without operations).
    public var amplification: Double { operations > 0 ? Double(attempts) / Double(operations) : .nan }
    /// Given up per operation started (NaN without operations).
    public var gaveUpFraction: Double { operations > 0 ? Double(gaveUp) / Double(operations) : .nan }
}
