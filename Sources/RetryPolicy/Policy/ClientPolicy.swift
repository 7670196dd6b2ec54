/// Retry logic the simulator runs for every simulated client: ``RetryPolicy`` is one, and an app's
/// own retry code becomes one by answering the same four questions — may an attempt start now
/// (``admit(record:host:now:random:)``), one started (``attemptStarted(record:host:now:)``), it
/// succeeded (``succeeded(record:host:now:random:)``), and what follows a failure
/// (``decide(after:record:host:now:random:)``).
///
/// Time and randomness are injected: `now` is the caller's clock in ``Nanoseconds`` (the
/// simulation's clock in the simulator, from 0 at the start of the run) and `random` gives uniform
/// draws in [0, 1) from the caller's seeded stream, so a conforming type reads no clock and keeps
/// no generator of its own, and the same scenario and seed give the same run.
///
/// State lives in the caller's values, not in the policy: the simulator keeps one
/// ``OperationRecord`` per operation (an app persists the same record) and one ``HostGuard`` per
/// client and host (one for the whole fleet unless ``keepsHostState``). The policy itself is an
/// immutable value shared by every client. A custom policy keeps what it needs per operation in
/// the record's counters (``OperationRecord/attemptCount``, ``OperationRecord/backoffStep``,
/// ``OperationRecord/backoffMemory``, …) and ends each decision through
/// ``OperationRecord/retry(at:)`` or ``OperationRecord/stop(_:)``, which keep the record's phase
/// right for the simulator's restarts and reconnects.
///
/// Only ``decide(after:record:host:now:random:)`` is required; the rest have defaults that admit
/// every attempt, keep the record's bookkeeping and hold no host state.
///
/// The simulator's event loop is generic over the conforming type and specialised when the
/// simulator is compiled: for ``RetryPolicy``, and for one wrapper type that calls an app's own
/// conformance, so an app's type runs the same specialised loop with only its own calls dynamic,
/// as fast as the library's within noise (`make bench`: `policy-custom` against `policy-library`).
///
/// ```swift
/// // Three immediate retries of 5xx responses, nothing else.
/// struct ThreeQuickRetries: ClientPolicy {
///     func decide<R: UniformSource & ~Copyable>(
///         after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard,
///         now: Nanoseconds, random: inout R
///     ) -> RetryDecision {
///         guard let status = failure.status, status >= 500 else { return record.stop(.nonRetryable) }
///         // attemptCount counts the attempt that just failed.
///         return record.attemptCount <= 3 ? record.retry(at: now) : record.stop(.attemptsExhausted)
///     }
/// }
/// ```
public protocol ClientPolicy: Sendable {
    /// Whether an attempt of the operation may start now; called before every attempt, the first
    /// included, and again when the answer said to wait. Default: ``Admission/proceed``.
    func admit<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds,
        random: inout R
    ) -> Admission

    /// An attempt starts now (after ``Admission/proceed``). Default: counts it in the record
    /// (``OperationRecord/attemptCount``, first and last attempt instants, phase in flight).
    func attemptStarted(record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds)

    /// The attempt in flight succeeded; the operation is done. Default: phase succeeded.
    func succeeded<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds,
        random: inout R)

    /// What follows the failure of the attempt in flight: ``RetryDecision/retry(at:)`` an instant
    /// no earlier than `now`, or ``RetryDecision/stop(_:)``. End with ``OperationRecord/retry(at:)``
    /// or ``OperationRecord/stop(_:)``, which set the record's phase and next attempt to match.
    func decide<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> RetryDecision

    /// The answer to a status query after ``RetryDecision/reconcile(at:)``. Default: `.applied`
    /// is ``RetryDecision/confirmed``, anything else stops as ``StopReason/ambiguousOutcome``.
    func reconciled<R: UniformSource & ~Copyable>(
        _ result: ReconcileResult, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> RetryDecision

    /// The app restarted with this persisted record: returns when the operation is next due (nil
    /// if it had finished). Default: the schedule is kept; an attempt that was in flight has an
    /// unknown outcome and is due now.
    func restart(record: inout OperationRecord, now: Nanoseconds) -> Nanoseconds?

    /// The app restarted: what survives of the host state. Default: nothing in flight or waiting.
    func restart(host: inout HostGuard)

    /// The host state a client starts with. Default: no budget, breaker or throttle in use.
    func makeHostGuard() -> HostGuard

    /// Attempts a host may have in flight at once, and what happens beyond (nil: no limit, the
    /// default). With a limit, the simulator parks an operation on ``Admission/waitForSlot`` and
    /// asks again when an attempt of its host ends.
    var concurrency: ConcurrencyLimit? { get }

    /// How the policy treats writes whose outcome is unknown: the simulator counts duplicate
    /// writes when ``AmbiguityPolicy/idempotency`` is ``Idempotency/none`` and answers status
    /// queries when ``AmbiguityPolicy/reconcile`` is set. Default: idempotency keys, no queries.
    var ambiguity: AmbiguityPolicy { get }

    /// Whether the policy reads or writes `host` (a budget, a breaker, a throttle, a concurrency
    /// limit): the simulator then keeps one ``HostGuard`` per client and host instead of one for
    /// the whole fleet. Default: false.
    var keepsHostState: Bool { get }

    // Hedged operations (see ``Hedging`` and `RetryPolicy+Hedge.swift`): asked only of a policy
    // whose ``hedging`` is set.

    /// Copies of an attempt sent while none has answered (nil: none, the default).
    var hedging: Hedging? { get }

    /// Whether one more copy may go out now: nil, or why not (the copy is not sent; with no copy
    /// out, the operation has failed). Default: ``admit(record:host:now:random:)``, a wait read as
    /// a refusal (a copy does not wait): ``StopReason/concurrencyLimited`` for a slot,
    /// ``StopReason/throttledLocally`` for a time.
    func admitCopy<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R, afterFailure: Bool
    ) -> StopReason?

    /// A copy succeeded, `othersInFlight` still out (cancelled by the caller). Default:
    /// ``succeeded(record:host:now:random:)``.
    func copySucceeded<R: UniformSource & ~Copyable>(
        othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    )

    /// A copy failed, `othersInFlight` still out: send the next now, wait for the others, or
    /// stop. Default: ``decide(after:record:host:now:random:)``; a retry it plans is the next copy
    /// now while fewer than ``Hedging/maxAttempts`` have gone out, a stop ends the operation.
    func copyFailed<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> HedgeDecision
}
