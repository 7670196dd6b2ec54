/// The retry state of one logical operation: what an app persists (it is `Codable`) so that an
/// app restart does not reset the schedule — the offline-first chapter's operation record
/// (attemptCount, lastAttemptAt, nextAttemptAt, lastErrorClass, blockedReason).
///
/// Times are ``Nanoseconds`` from the caller's epoch; an app that persists the record across
/// restarts must use a wall-clock epoch (e.g. the Unix epoch), since monotonic clocks restart, or
/// ``shift(by:)`` it when reloading. ``RetryPolicy/restart(record:now:)`` applies the policy's
/// ``RestartSchedule`` (keep it, or the storm-making reset).
///
/// A plain value of fixed size (no references): the simulator keeps millions of them.
public struct OperationRecord: Sendable, Hashable, Codable {
    /// Attempts started, over all cool-off cycles.
    public var attemptCount: Int32 = 0
    /// Consecutive failed attempts in the current cycle (reset by a cool-off).
    public var cycleFailures: Int32 = 0
    /// The retry number that drives the backoff exponent; a server pushback may reset it.
    public var backoffStep: Int32 = 0
    /// Credential refreshes done for this operation.
    public var authRefreshes: Int32 = 0
    /// The cost the retry budget took for the latest retry (refunded on success by AWS quotas);
    /// for Envoy's budget, the concurrent-retry slots the operation holds.
    public var lastRetryCost: Int32 = 0
    /// Retries this operation may take at most (Finagle's per-request requeue limit, fixed when its
    /// first attempt starts); `Int32.max` when no such limit applies.
    public var retryAllowance: Int32 = .max
    /// The breaker epoch its latest attempt was admitted in (see ``CircuitBreakerState/epoch``).
    public var breakerEpoch: UInt32 = 0
    /// The stateful jitters' memory (see ``Backoff/delay(retry:memory:random:)``).
    public var backoffMemory: Double = 0
    /// When the first attempt started.
    public var firstAttemptAt: Nanoseconds?
    /// When the latest attempt started.
    public var lastAttemptAt: Nanoseconds?
    /// When the next attempt may start (nil: now, or never if stopped).
    public var nextAttemptAt: Nanoseconds?
    /// The kind of the latest failure.
    public var lastErrorClass: FailureKind?
    /// Where the operation stands.
    public var phase: Phase = .pending
    /// Its priority lane, chosen by the caller.
    public var lane: Lane = .userInitiated
    /// It is counted among the host's operations waiting for a concurrency slot.
    public var waitingForSlot = false
    /// It holds one of the host's concurrent-retry slots (Envoy's retry budget) until its attempt ends.
    public var holdsRetrySlot = false

    /// Where an operation stands; only a stopped one has a reason.
    public enum Phase: Sendable, Hashable, Codable {
        /// Queued, never attempted.
        case pending
        /// An attempt is in flight.
        case inFlight
        /// Failed transiently; waiting for `nextAttemptAt`.
        case willRetry
        /// A cycle of attempts failed; waiting out the cool-off.
        case coolingOff
        /// Failed ambiguously: it may have been applied (show "pending confirmation", not "failed").
        case unknown
        /// Succeeded (or reconciliation confirmed it was applied): done.
        case succeeded
        /// Stopped, and why: gave up (``StopReason/isGiveUp``) or needs attention.
        case stopped(StopReason)
    }

    /// A fresh record: no attempt yet, phase ``Phase/pending``, in `lane` (user-initiated by
    /// default). Persist it from the first attempt on if the schedule must survive a restart.
    public init(lane: Lane = .userInitiated) { self.lane = lane }

    /// Why it stopped, once stopped (the chapter's `blockedReason`); nil in every other phase.
    public var blockedReason: StopReason? {
        if case .stopped(let reason) = phase { reason } else { nil }
    }

    /// Whether the operation has ended (succeeded or stopped).
    public var isFinished: Bool {
        switch phase {
        case .succeeded, .stopped: true
        default: false
        }
    }

    /// Shifts every instant by `offset`: for a record persisted with one clock epoch and reloaded
    /// with another (e.g. `offset = oldEpoch − newEpoch`, both in the same unit).
    public mutating func shift(by offset: Nanoseconds) {
        firstAttemptAt = firstAttemptAt.map { Time.adding($0, offset) }
        lastAttemptAt = lastAttemptAt.map { Time.adding($0, offset) }
        nextAttemptAt = nextAttemptAt.map { Time.adding($0, offset) }
    }

    /// ``shift(by:)`` with the offset as a `Duration` (truncated to whole nanoseconds).
    @_disfavoredOverload
    public mutating func shift(by offset: Duration) { shift(by: Time.nanoseconds(offset)) }
}
