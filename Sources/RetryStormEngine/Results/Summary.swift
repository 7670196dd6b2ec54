import RetryPolicy

/// The summary metrics of one replication (one row of summary.csv).
package struct Summary: Sendable, Hashable {
    package var clients: Int
    package var operations: Int64
    /// First attempts + retries.
    package var attempts: Int64
    package var firstAttempts: Int64
    package var retries: Int64
    /// attempts / operations.
    package var amplification: Double
    package var succeeded: Int64
    package var gaveUp: Int64
    package var blocked: Int64
    /// Operations still going at the horizon.
    package var unfinished: Int64
    package var failed: Int64
    package var timedOut: Int64
    package var rejected: Int64
    package var offered: Int64
    package var served: Int64
    package var wasted: Int64
    package var expired: Int64
    /// Attempts that failed for lack of network.
    package var offline: Int64
    /// Writes applied more than once (operations without idempotency keys).
    package var duplicates: Int64
    /// Status queries sent to reconcile ambiguous failures.
    package var queries: Int64
    /// Operations found applied by a status query.
    package var confirmed: Int64
    /// Attempts in flight their client abandoned: at an app restart, or a hedged copy another copy outran.
    package var abandoned: Int64
    /// Retries the retry budget refused.
    package var budgetDenied: Int64
    /// Attempts the policy held back before sending (breaker, concurrency, throttle).
    package var heldBack: Int64
    /// Retries a guard refused: the retry budget, a breaker failing fast, the adaptive throttle,
    /// a concurrency limit failing when full (each ends its operation).
    package var retriesRefused: Int64 = 0
    /// Mean time a request waited in the queue before service, seconds, by Little's law
    /// (∫ queue length dt / requests admitted); NaN when the model has no queue.
    package var waitMeanSeconds: Double
    /// The largest number of attempts that reached the server in one whole second.
    package var peakOfferedPerSecond: Int64
    /// peakOfferedPerSecond / nominal capacity.
    package var peakLoadRatio: Double
    /// Time-to-success statistics over every operation, seconds: the survival view, in which an
    /// operation that gave up, was blocked or is unfinished at the horizon never succeeded (+∞).
    /// A percentile is +∞ when fewer operations succeeded than its level
    /// (``Statistics/survivalQuantile(sorted:total:_:)``); the mean and the max are +∞ as soon as
    /// one operation did not succeed. NaN without operations.
    package var ttsMean: Double
    package var ttsP50: Double
    package var ttsP90: Double
    package var ttsP99: Double
    package var ttsP999: Double
    package var ttsMax: Double
    /// The same statistics among the operations that succeeded (or were confirmed), seconds; NaN
    /// when nothing succeeded. They leave out what was lost, so a policy that gives up on its slow
    /// operations looks faster by them.
    package var ttsSuccessMean: Double
    package var ttsSuccessP50: Double
    package var ttsSuccessP90: Double
    package var ttsSuccessP99: Double
    package var ttsSuccessP999: Double
    package var ttsSuccessMax: Double
    /// Seconds from the start of the trigger (``Scenario/trigger``: a capacity disturbance or a
    /// load spike) until the start of the first bucket after which no bucket is failing
    /// (``RecoveryRule``: failures above what the share failing before the trigger predicts,
    /// sustained over the recovery window): how long the incident hurt clients. +inf if that
    /// never happens before the horizon, or a service is still saturated there (``Recovery``);
    /// 0 if no bucket failed; NaN without a trigger.
    package var recoverySeconds: Double
    /// wasted / served.
    package var wastedFraction: Double
    /// Events processed.
    package var events: Int64
    /// When the simulation stopped: the horizon, or the last event if nothing was left to do.
    package var simEndSeconds: Double
    /// The time-average number of requests waiting in the queue.
    package var meanQueueLength: Double
    /// gaveUp / operations and blocked / operations (NaN without operations).
    package var gaveUpFraction: Double
    package var blockedFraction: Double
    /// unfinished / operations (NaN without operations).
    package var unfinishedFraction: Double
    /// Time-to-success quantiles over the operations that started in the incident window (see
    /// ``Incident``), seconds, in the survival view as ``ttsP50`` (+∞ past the share that
    /// succeeded); NaN without a trigger or without such operations.
    package var incidentTTSP50: Double
    package var incidentTTSP99: Double
    /// The same among the incident's operations that succeeded; NaN without a success in the window.
    package var incidentTTSSuccessP50: Double
    package var incidentTTSSuccessP99: Double
    /// The share of the operations that started in the incident window that gave up (NaN without a trigger).
    package var incidentGaveUpFraction: Double
    /// The largest bucket's offered load over that bucket's capacity (buckets with capacity; NaN if none).
    package var peakOverload: Double
    /// 1 when clients stopped failing before the horizon (``recoverySeconds`` finite), else 0; NaN
    /// without a trigger.
    package var recovered: Double
    /// Seconds from the trigger's end (capacity back at nominal, load back at its base) until the recovery; 0 when it
    /// recovered before the trigger ended, +inf when never, NaN without a trigger.
    package var recoveryAfterTriggerSeconds: Double
    /// The mean load over the incident window: attempts that reached the server in it over the
    /// capacity it had (∑ offered / ∑ capacity × seconds, over its buckets), next to the one-bucket
    /// ``peakOverload``. NaN without a trigger or without capacity in the window.
    package var incidentLoadRatio: Double = .nan
    /// 1 when the run is stuck at the horizon (``Stuck``: its users' goodput under half of what
    /// they start, or in a call graph a service stuck), 0 when not, NaN when the run ends less
    /// than `stuck_window` after its trigger.
    package var stuck: Double = .nan

    /// Of the retries the policy wanted to send, the share a guard refused:
    /// retriesRefused / (retries + retriesRefused); NaN when it wanted none.
    package var retriesRefusedFraction: Double { Self.refusedFraction(retriesRefused, sent: retries) }

    /// refused / (sent + refused), NaN when both are 0.
    static func refusedFraction(_ refused: Int64, sent: Int64) -> Double {
        refused + sent > 0 ? Double(refused) / Double(refused + sent) : .nan
    }
}
