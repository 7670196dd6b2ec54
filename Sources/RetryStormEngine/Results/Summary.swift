import RetryPolicy

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
    /// Retries a guard refused: the retry budget, a breaker failing fast, the adaptive throttle,
    /// a concurrency limit failing when full (each ends its operation).
    public var retriesRefused: Int64 = 0
    /// Mean time a request waited in the queue before service, seconds, by Little's law
    /// (∫ queue length dt / requests admitted); NaN when the model has no queue.
    public var waitMeanSeconds: Double
    /// The largest number of attempts that reached the server in one whole second.
    public var peakOfferedPerSecond: Int64
    /// peakOfferedPerSecond / nominal capacity.
    public var peakLoadRatio: Double
    /// Time-to-success statistics over every operation, seconds: the survival view, in which an
    /// operation that gave up, was blocked or is unfinished at the horizon never succeeded (+∞).
    /// A percentile is +∞ when fewer operations succeeded than its level
    /// (``Statistics/survivalQuantile(sorted:total:_:)``); the mean and the max are +∞ as soon as
    /// one operation did not succeed. NaN without operations.
    public var ttsMean: Double
    public var ttsP50: Double
    public var ttsP90: Double
    public var ttsP99: Double
    public var ttsP999: Double
    public var ttsMax: Double
    /// The same statistics among the operations that succeeded (or were confirmed), seconds; NaN
    /// when nothing succeeded. They leave out what was lost, so a policy that gives up on its slow
    /// operations looks faster by them.
    public var ttsSuccessMean: Double
    public var ttsSuccessP50: Double
    public var ttsSuccessP90: Double
    public var ttsSuccessP99: Double
    public var ttsSuccessP999: Double
    public var ttsSuccessMax: Double
    /// Seconds from the start of the trigger (``Scenario/trigger``: a capacity disturbance or a
    /// load spike; t = 0 without one) until the start of the first bucket after which no bucket
    /// is failing (``RecoveryRule``: failures — attempts timed out, rejected or expired — above
    /// what the share failing before the trigger predicts; any failure when none failed before):
    /// how long the incident hurt clients. +inf if that never happens before the horizon; 0 if
    /// no bucket failed.
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
    /// unfinished / operations (NaN without operations).
    public var unfinishedFraction: Double
    /// Time-to-success quantiles over the operations that started in the incident window (see
    /// ``Incident``), seconds, in the survival view as ``ttsP50`` (+∞ past the share that
    /// succeeded); NaN without a trigger or without such operations.
    public var incidentTTSP50: Double
    public var incidentTTSP99: Double
    /// The same among the incident's operations that succeeded; NaN without a success in the window.
    public var incidentTTSSuccessP50: Double
    public var incidentTTSSuccessP99: Double
    /// The share of the operations that started in the incident window that gave up (NaN without a trigger).
    public var incidentGaveUpFraction: Double
    /// The largest bucket's offered load over that bucket's capacity (buckets with capacity; NaN if none).
    public var peakOverload: Double
    /// 1 when clients stopped failing before the horizon (``recoverySeconds`` finite), else 0.
    public var recovered: Double
    /// Seconds from the trigger's end (capacity back at nominal, load back at its base) until the recovery; 0 when it
    /// recovered before the trigger ended, +inf when never, NaN without a trigger.
    public var recoveryAfterTriggerSeconds: Double
    /// The mean load over the incident window: attempts that reached the server in it over the
    /// capacity it had (∑ offered / ∑ capacity × seconds, over its buckets), next to the one-bucket
    /// ``peakOverload``. NaN without a trigger or without capacity in the window.
    public var incidentLoadRatio: Double = .nan

    /// Of the retries the policy wanted to send, the share a guard refused:
    /// retriesRefused / (retries + retriesRefused); NaN when it wanted none.
    public var retriesRefusedFraction: Double { Self.refusedFraction(retriesRefused, sent: retries) }

    /// refused / (sent + refused), NaN when both are 0.
    static func refusedFraction(_ refused: Int64, sent: Int64) -> Double {
        refused + sent > 0 ? Double(refused) / Double(refused + sent) : .nan
    }
}
