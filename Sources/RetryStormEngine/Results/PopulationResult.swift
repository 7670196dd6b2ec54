import RetryPolicy

/// One population's share of a replication's results.
package struct PopulationResult: Sendable, Hashable {
    package var name: String
    package var clients: Int
    package var operations: Int64
    /// Operations that succeeded or were confirmed applied.
    package var succeeded: Int64
    package var gaveUp: Int64
    /// First attempts and retries.
    package var attempts: Int64
    /// Time to success over every operation of the population, seconds, in the survival view of
    /// ``Summary/ttsP50`` (+∞ past the share that succeeded; NaN without operations).
    package var ttsP50: Double
    package var ttsP99: Double
    /// Among the population's operations that succeeded, seconds; NaN when none succeeded.
    package var ttsSuccessP50: Double
    package var ttsSuccessP99: Double
    /// As ``Summary/incidentTTSP50`` and the others, for this population's operations (NaN without a trigger).
    package var incidentTTSP50: Double
    package var incidentTTSP99: Double
    package var incidentTTSSuccessP50: Double
    package var incidentTTSSuccessP99: Double
    package var incidentGaveUpFraction: Double
    /// Requests of this population that reached the server, per time bucket.
    package var offered: [Int64]
    /// Operations stopped needing attention, and still going at the horizon.
    package var blocked: Int64 = 0
    package var unfinished: Int64 = 0
    /// Attempts after the first.
    package var retries: Int64 = 0
    /// Retries the retry budget refused, and those any guard refused (``Summary/retriesRefused``).
    package var budgetDenied: Int64 = 0
    package var retriesRefused: Int64 = 0
    /// Times the policy held an attempt back before sending it.
    package var heldBack: Int64 = 0
    /// This population's attempts that failed, timed out, were rejected, failed offline or were
    /// abandoned by a restart; its duplicate writes, status queries and confirmed operations (as
    /// ``Summary``'s, counted where the client sees them).
    package var failed: Int64 = 0
    package var timedOut: Int64 = 0
    package var rejected: Int64 = 0
    package var offline: Int64 = 0
    package var abandoned: Int64 = 0
    package var duplicates: Int64 = 0
    package var queries: Int64 = 0
    package var confirmed: Int64 = 0
    /// The other time-to-success statistics of ``Summary``, over this population's operations:
    /// every operation (the survival view), then among successes.
    package var ttsMean: Double = .nan
    package var ttsP90: Double = .nan
    package var ttsP999: Double = .nan
    package var ttsMax: Double = .nan
    package var ttsSuccessMean: Double = .nan
    package var ttsSuccessP90: Double = .nan
    package var ttsSuccessP999: Double = .nan
    package var ttsSuccessMax: Double = .nan

    package init(
        name: String, clients: Int, operations: Int64, succeeded: Int64, gaveUp: Int64, attempts: Int64,
        ttsP50: Double, ttsP99: Double, ttsSuccessP50: Double, ttsSuccessP99: Double,
        incidentTTSP50: Double, incidentTTSP99: Double, incidentTTSSuccessP50: Double, incidentTTSSuccessP99: Double,
        incidentGaveUpFraction: Double, offered: [Int64]
    ) {
        self.name = name
        self.clients = clients
        self.operations = operations
        self.succeeded = succeeded
        self.gaveUp = gaveUp
        self.attempts = attempts
        self.ttsP50 = ttsP50
        self.ttsP99 = ttsP99
        self.ttsSuccessP50 = ttsSuccessP50
        self.ttsSuccessP99 = ttsSuccessP99
        self.incidentTTSP50 = incidentTTSP50
        self.incidentTTSP99 = incidentTTSP99
        self.incidentTTSSuccessP50 = incidentTTSSuccessP50
        self.incidentTTSSuccessP99 = incidentTTSSuccessP99
        self.incidentGaveUpFraction = incidentGaveUpFraction
        self.offered = offered
    }

    /// Attempts per operation (NaN without operations).
    package var amplification: Double { operations > 0 ? Double(attempts) / Double(operations) : .nan }
    /// Given up per operation started (NaN without operations).
    package var gaveUpFraction: Double { operations > 0 ? Double(gaveUp) / Double(operations) : .nan }
    /// Blocked and unfinished per operation started (NaN without operations).
    package var blockedFraction: Double { operations > 0 ? Double(blocked) / Double(operations) : .nan }
    package var unfinishedFraction: Double { operations > 0 ? Double(unfinished) / Double(operations) : .nan }
    /// First attempts: attempts − retries.
    package var firstAttempts: Int64 { attempts - retries }
    /// Requests of this population that reached the server over the run (after the warmup).
    package var offeredTotal: Int64 = 0
    /// 1 when the population's goodput is under half of what it starts at the horizon (``Stuck``),
    /// 0 when not, NaN when the run ends less than `stuck_window` after its trigger.
    package var stuck: Double = .nan
    /// Of the retries this population's policy wanted to send, the share a guard refused (NaN when none).
    package var retriesRefusedFraction: Double { Summary.refusedFraction(retriesRefused, sent: retries) }
}
