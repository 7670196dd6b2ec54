/// The retry state of one logical operation: what an app persists (it is `Codable`) so that an
/// app restart does not reset the schedule — the offline-first chapter's operation record
/// (attemptCount, lastAttemptAt, nextAttemptAt, lastErrorClass, blockedReason).
///
/// Times are ``Nanoseconds`` from the caller's epoch; an app that persists the record across
/// restarts must use a wall-clock epoch (e.g. the Unix epoch), since monotonic clocks restart.
public struct OperationRecord: Sendable, Hashable, Codable {
    /// Attempts started, over all cool-off cycles.
    public var attemptCount: Int32 = 0
    /// Consecutive failed attempts in the current cycle (reset by a cool-off).
    public var cycleFailures: Int32 = 0
    /// The retry number that drives the backoff exponent; a server pushback may reset it.
    public var backoffStep: Int32 = 0
    /// Credential refreshes done for this operation.
    public var authRefreshes: Int32 = 0
    /// The cost the retry budget took for the latest retry (refunded on success by AWS quotas).
    public var lastRetryCost: Int32 = 0
    /// When the first attempt started.
    public var firstAttemptAt: Nanoseconds?
    /// When the latest attempt started.
    public var lastAttemptAt: Nanoseconds?
    /// When the next attempt may start (nil: now, or never if stopped).
    public var nextAttemptAt: Nanoseconds?
    /// The kind of the latest failure.
    public var lastErrorClass: FailureKind?
    /// Why it stopped, once stopped.
    public var blockedReason: StopReason?
    /// The stateful jitters' memory (see ``Backoff/delay(retry:memory:random:)``).
    public var backoffMemory: Double = 0
    /// Where the operation stands.
    public var phase: Phase = .pending

    public enum Phase: UInt8, Sendable, Hashable, Codable {
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
        case succeeded
        /// Stopped; see `blockedReason`.
        case stopped
    }

    public init() {}

    /// Whether the operation has ended (succeeded or stopped).
    public var isFinished: Bool { phase == .succeeded || phase == .stopped }
}
