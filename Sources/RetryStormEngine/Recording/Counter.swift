/// The per-bucket counts of a run. What a result file calls them is the results' business
/// (RetryStormResults' `TimeSeriesColumn` maps its count columns to these cases).
///
/// Every attempt ends in exactly one of succeeded, failed, timed out, rejected, offline or
/// abandoned (or is still in flight at the horizon), so `firstAttempts + retries` = their sum + in
/// flight; every operation ends in exactly one of succeeded, confirmed, gave up or blocked (or is
/// unfinished at the horizon). A hedged operation's copies after the first obey one more:
/// `hedgesWanted = hedgesSent + hedgesRefused + hedgesNotNeeded`, at the clients and on every
/// edge (``Simulation/checkEvent()``, ``GraphServer/checkCopies(_:)``).
package enum Counter: Int, CaseIterable, Sendable {
    /// Attempts that reached the server.
    case offered
    /// First attempts of operations sent by clients.
    case firstAttempts
    /// Retries (attempts after the first) sent by clients.
    case retries
    /// Requests whose service the server completed, wanted or not.
    case served
    /// Attempts that succeeded (= operations that succeeded).
    case succeeded
    /// Attempts that ended in an error response after service.
    case failed
    /// Attempts the client abandoned at its timeout.
    case timedOut
    /// Attempts the server refused without serving them (full queue).
    case rejected
    /// Requests served after their client had abandoned them.
    case wasted
    /// Requests dropped unserved at the head of the queue because their deadline had passed.
    case expired
    /// Operations that stopped because the policy's limits ran out.
    case gaveUp
    /// Operations that stopped needing attention (non-retryable failures).
    case blocked
    /// Operations that started.
    case operations
    /// Attempts that failed on the client because it had no network (at once or at the connect timeout).
    case offline
    /// Writes the server applied once more for an operation it had already applied (no idempotency key).
    case duplicates
    /// Status queries sent to reconcile ambiguous failures.
    case queries
    /// Operations confirmed by a status query to have been applied (they succeeded without a successful attempt).
    case confirmed
    /// Attempts in flight their client abandoned: at an app restart, or a hedged copy another copy outran.
    case abandoned
    /// Retries and hedged copies the retry budget refused, each once: a refused retry ends its
    /// operation as gave up; a refused copy leaves the copies out to answer. Never also `heldBack`.
    case budgetDenied
    /// Times the policy held an attempt back before sending it: a breaker open or its probes out,
    /// the host's concurrency slots full, the adaptive throttle refusing. Not the budget's
    /// refusals, which are `budgetDenied` alone.
    case heldBack
    /// Operations that gave up, counted in the bucket they started in (the incident metrics ask
    /// which operations started during an incident, not when they ended). No time-series column.
    case gaveUpByStart
    /// Operations blocked, and operations found applied by a status query, counted in the bucket
    /// they started in (a `warmup` leaves out the operations that started in it). No time-series column.
    case blockedByStart
    case confirmedByStart
    /// Attempts the first service of a call graph answered with a failed call's
    /// `failure_status` (its own work was done; a call downstream failed after its retries):
    /// failures the storm causes, as timeouts and refusals are, so the recovery rule counts them.
    /// 0 for one hop. No time-series column.
    case dependencyFailed
    /// Copies after the first that a hedged operation's policy wanted: the latest copy's delay
    /// passed with the operation unanswered, or a failure it retries asked for one at once; at
    /// most `hedge.max_attempts − 1` per operation (a copy a guard refused is not asked again).
    /// Each is exactly one of the next three. No time-series column.
    case hedgesWanted
    /// Wanted copies that went out (each also a retry).
    case hedgesSent
    /// Wanted copies a guard refused (the budget: also `budgetDenied`; another: also `heldBack`):
    /// the operation asks for no copy after that, as gRPC freezes a call's hedging once throttled.
    case hedgesRefused
    /// Wanted copies not sent because they could not be of use: the operation's deadline (a
    /// call's, its request's) had passed, so none starts and the copies out time out there.
    case hedgesNotNeeded
}
