/// One host's shared retry state in an app: the ``HostGuard`` every operation to the host goes
/// through (budget, breaker, throttle, concurrency limit), a clock and the epoch its times count
/// from, and the operations waiting for a concurrency slot. Create one per host (or endpoint) and
/// pass it to every ``retrying(host:record:random:normalizer:refreshCredentials:reconcile:isolation:operation:)``
/// call for that host.
///
/// ```swift
/// let api = RetryHost(policy: .offlineFirst, clock: ContinuousClock())   // one per host, for the app's life
/// var record = OperationRecord(lane: .background)
/// var random = SystemUniformSource()
/// let items = try await retrying(host: api, record: &record, random: &random) { _ in
///     try await client.fetchItems()
/// }
/// ```
///
/// Instants in ``state`` and in records are ``Nanoseconds`` since ``epoch``, the clock's reading
/// when the host was created: a record persisted in one launch must be moved to the next
/// launch's host epoch with ``OperationRecord/shift(by:)`` before it is passed in again.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public actor RetryHost<C: Clock> where C.Duration == Duration {
    /// The policy every operation through this host runs.
    public let policy: RetryPolicy
    /// The clock the executor reads and sleeps on (a test clock in tests).
    public let clock: C
    /// Instant 0 of the policy's ``Nanoseconds``.
    public let epoch: C.Instant
    /// The shared state.
    public private(set) var state: HostGuard
    private var slotWaiters: [(id: UInt64, lane: Lane, continuation: CheckedContinuation<Bool, any Error>)] = []
    private var nextWaiter: UInt64 = 0
    /// Waiters woken and not yet admitted again: each holds a free slot until it asks
    /// (``ConcurrencyLimit/wakeWaiters(inFlight:pending:_:)``).
    private var pendingWakes: Int32 = 0
    /// The copies' latencies for a percentile hedging delay (``Hedging/Delay/percentile(_:window:)``;
    /// nil otherwise), shared by every operation of the host.
    private var latencies: LatencyWindow?

    /// A host with fresh state for `policy` (a full budget, a closed breaker, nothing in flight);
    /// ``epoch`` is `clock.now`.
    public init(policy: RetryPolicy, clock: C) {
        self.policy = policy
        self.clock = clock
        epoch = clock.now
        state = HostGuard(policy: policy)
        latencies = policy.hedging?.latencyWindow()
    }

    /// Now, in nanoseconds since ``epoch``.
    public nonisolated func now() -> Nanoseconds { Time.nanoseconds(epoch.duration(to: clock.now)) }

    /// The clock's instant `t` nanoseconds after ``epoch``.
    public nonisolated func instant(_ t: Nanoseconds) -> C.Instant { epoch.advanced(by: .nanoseconds(t)) }

    /// The clock's instant `t` after ``epoch``.
    @_disfavoredOverload
    public nonisolated func instant(_ t: Duration) -> C.Instant { epoch.advanced(by: t) }

    /// - Parameter woken: the operation comes back from ``waitForSlot(lane:)``, woken for a slot.
    func admit<R: UniformSource & Sendable>(_ record: inout OperationRecord, random: inout R, woken: Bool = false) -> Admission {
        if woken { pendingWakes = max(0, pendingWakes &- 1) }
        return policy.admit(record: &record, host: &state, now: now(), random: &random)
    }

    func attemptStarted(_ record: inout OperationRecord) {
        policy.attemptStarted(record: &record, host: &state, now: now())
    }

    func succeeded<R: UniformSource & Sendable>(_ record: inout OperationRecord, random: inout R) {
        policy.succeeded(record: &record, host: &state, now: now(), random: &random)
        wakeSlotWaiters()
    }

    func decide<R: UniformSource & Sendable>(_ error: NormalizedError, _ record: inout OperationRecord, random: inout R) -> RetryDecision {
        let d = policy.decide(after: error, record: &record, host: &state, now: now(), random: &random)
        wakeSlotWaiters()
        return d
    }

    func reconciled<R: UniformSource & Sendable>(_ result: ReconcileResult, _ record: inout OperationRecord, random: inout R) -> RetryDecision {
        policy.reconciled(result, record: &record, host: &state, now: now(), random: &random)
    }

    func cancelled(_ record: inout OperationRecord, woken: Bool = false) {
        if woken { pendingWakes = max(0, pendingWakes &- 1) }
        policy.cancelled(record: &record, host: &state, now: now())
        wakeSlotWaiters()
    }

    // Hedged operations (``hedging(host:record:random:normalizer:operation:)``).

    /// The delay before the next copy now: the fixed one, or the percentile of the host's
    /// latencies (nil until enough are seen, or without hedging).
    func hedgeDelay() -> Nanoseconds? {
        policy.hedging?.currentDelay(latencies: &latencies, now: now())
    }

    func admitCopy<R: UniformSource & Sendable>(_ record: inout OperationRecord, random: inout R, afterFailure: Bool) -> StopReason? {
        policy.admitCopy(record: &record, host: &state, now: now(), random: &random, afterFailure: afterFailure)
    }

    /// A copy won (`win`): its latency and the outrun copies' times out so far are counted for a
    /// percentile delay, as Finagle counts them (``HedgedAttempt/Win/record(into:)``).
    func copySucceeded<R: UniformSource & Sendable>(_ win: HedgedAttempt.Win, _ record: inout OperationRecord, random: inout R) {
        let t = now()
        if latencies != nil { win.record(into: &latencies!) }
        policy.copySucceeded(othersInFlight: Int32(win.outrun.count), record: &record, host: &state, now: t, random: &random)
        wakeSlotWaiters()
    }

    /// A copy failed, `othersInFlight` still out; a timed-out one (`timedOutAfter`, nanoseconds
    /// since it went out) counts its time for a percentile delay.
    func copyFailed<R: UniformSource & Sendable>(
        _ error: NormalizedError, othersInFlight: Int32, timedOutAfter: Nanoseconds?, _ record: inout OperationRecord, random: inout R
    ) -> HedgeDecision {
        let t = now()
        if let timedOutAfter { latencies?.record(timedOutAfter, now: t) }
        let d = policy.copyFailed(after: error, othersInFlight: othersInFlight, record: &record, host: &state, now: t, random: &random)
        wakeSlotWaiters()
        return d
    }

    /// The task of a hedged operation was cancelled with `inFlight` copies out.
    func copiesCancelled(_ inFlight: Int32, _ record: inout OperationRecord) {
        // `cancelled` frees the last copy's slot (and a breaker probe); the others go first.
        if inFlight > 1 { policy.abandonCopies(inFlight - 1, record: &record, host: &state) }
        policy.cancelled(record: &record, host: &state, now: now())
        wakeSlotWaiters()
    }

    /// Suspends until an attempt of this host ends (or the task is cancelled).
    /// - Returns: whether it was woken for a slot (pass it to the next ``admit(_:random:woken:)``).
    func waitForSlot(lane: Lane) async throws -> Bool {
        let id = nextWaiter
        nextWaiter &+= 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Bool, any Error>) in
                if Task.isCancelled {
                    c.resume(throwing: CancellationError())
                } else if let limit = policy.concurrency, state.hasSlot(limit, lane: lane) {
                    // A slot freed between `admit` and this call: ask again at once rather than miss the wake-up.
                    c.resume(returning: false)
                } else {
                    slotWaiters.append((id, lane, c))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func cancelWaiter(_ id: UInt64) {
        guard let i = slotWaiters.firstIndex(where: { $0.id == id }) else { return }
        slotWaiters.remove(at: i).continuation.resume(throwing: CancellationError())
    }

    /// Wakes waiters by the rule the simulator follows (``ConcurrencyLimit/wakeWaiters(inFlight:pending:_:)``):
    /// as many per lane as it has free slots, user-initiated first, each lane in arrival order;
    /// they ask ``admit(_:random:woken:)`` again, which has the last word.
    private func wakeSlotWaiters() {
        guard let limit = policy.concurrency, !slotWaiters.isEmpty else { return }
        pendingWakes &+= limit.wakeWaiters(inFlight: state.inFlight, pending: pendingWakes) { lane in
            guard let i = slotWaiters.firstIndex(where: { $0.lane == lane }) else { return nil }
            slotWaiters.remove(at: i).continuation.resume(returning: true)
            return true
        }
    }
}
