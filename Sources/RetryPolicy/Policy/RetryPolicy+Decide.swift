/// After an attempt: success, failure, reconciliation.
extension RetryPolicy {
    /// Records that the attempt in flight succeeded; the operation is done. Counts a success for
    /// the breaker and the throttle, and refunds or replenishes the budget.
    @inlinable @inline(__always) public func succeeded<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) {
        if endAttempt(&record, &host) {
            if hasBreaker { host.breaker.record(breakerConfig, failed: false, epoch: record.breakerEpoch, now: now, random: &random) }
            if let throttle { host.throttle.accepted(throttle, now: now) }
            host.budget.succeeded(budget, record: record)
        }
        record.phase = .succeeded
        record.nextAttemptAt = nil
    }

    /// Decides what follows the failure of the attempt in flight, and updates the record.
    ///
    /// First the host's accounting (breaker outcome, throttle accept, gRPC's token for a
    /// retryable failure), then the decision. Order of checks: server "stop" → credentials →
    /// retryable → ambiguity (reconcile, or stop without a key) → attempts (or cool-off) → delay
    /// (backoff, then server hint) → elapsed time → budget. On `.retry(at:)` the record's
    /// `nextAttemptAt` holds the instant; on `.stop` its phase is `.stopped(reason)`.
    @inlinable @inline(__always) public func decide<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        let c = classifier.classify(failure)
        let serverSaidStop = serverHints.negativeMeansStop && (c.serverHint ?? 0) < 0
        if endAttempt(&record, &host) {
            if hasBreaker, !c.kind.isLocal {
                host.breaker.record(
                    breakerConfig, failed: breakerConfig.records.contains(c.kind), epoch: record.breakerEpoch,
                    now: now, random: &random)
            }
            if let throttle, AdaptiveThrottle.accepted(failure, c) { host.throttle.accepted(throttle, now: now) }
            host.budget.attemptFailed(budget, counts: c.retryable || serverSaidStop)
        }
        return afterFailure(c, serverSaidStop: serverSaidStop, record: &record, host: &host, now: now, random: &random)
    }

    /// Continues after ``RetryDecision/reconcile(at:)`` with the server's answer: `.applied` ends
    /// the operation as ``RetryDecision/confirmed``; `.notApplied` schedules the retry (backoff,
    /// attempts, budget as for any failure); `.unknown` counts as one more failure and asks again
    /// after the next backoff delay, until attempts run out (``StopReason/ambiguousOutcome``).
    @inlinable @inline(__always) public func reconciled<R: UniformSource & ~Copyable>(
        _ result: ReconcileResult, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        switch result {
        case .applied:
            record.phase = .succeeded
            record.nextAttemptAt = nil
            return .confirmed
        case .notApplied:
            let kind = record.lastErrorClass ?? .timeout
            let c = FailureClass(kind: kind, retryable: true, isThrottling: kind == .throttled, isTimeout: kind == .timeout)
            return scheduleRetry(c, record: &record, host: &host, now: now, random: &random)
        case .unknown:
            record.cycleFailures &+= 1
            guard record.cycleFailures < Int32(clamping: maxAttempts) else { return stop(.ambiguousOutcome, &record) }
            record.backoffStep &+= 1
            let delay = backoff.delay(retry: Int(record.backoffStep), memory: &record.backoffMemory, random: &random)
            let at = Time.adding(now, delay)
            record.nextAttemptAt = at
            record.phase = .unknown
            return .reconcile(at: at)
        }
    }

    /// Undoes what an operation holds on its host when the caller abandons it (task cancelled, app
    /// quitting, the simulation's horizon): its attempt in flight, its place in the slot queue,
    /// its retry slot, its half-open probe. The record stops as ``StopReason/cancelled``.
    @inlinable @inline(__always) public func cancelled(record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds) {
        if record.waitingForSlot {
            host.leaveSlotQueue(record.lane)
            record.waitingForSlot = false
        }
        if case .inFlight = record.phase {
            host.inFlight &-= 1
            host.breaker.releaseProbe(epoch: record.breakerEpoch)
        }
        host.budget.release(budget, record: &record)
        if !record.isFinished { _ = stop(.cancelled, &record) }
    }

    /// The failure's decision, once the host's accounting is done. Also used for an attempt the
    /// breaker failed locally.
    @inlinable @inline(__always) func afterFailure<R: UniformSource & ~Copyable>(
        _ c: FailureClass, serverSaidStop: Bool, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        record.lastErrorClass = c.kind
        record.cycleFailures &+= 1
        if serverSaidStop { return stop(.serverSaidStop, &record) }
        if c.requiresAuthRefresh {
            guard record.authRefreshes < maxAuthRefreshes else { return stop(.needsSignIn, &record) }
            record.authRefreshes &+= 1
            let at = Time.adding(now, authRefreshDelay)
            record.nextAttemptAt = at
            record.phase = .willRetry
            return .refreshCredentials(retryAt: at)
        }
        guard c.retryable else { return stop(Self.reasonNotRetryable(c), &record) }
        if c.ambiguous {
            if ambiguity.reconcile {
                let at = Time.adding(now, ambiguity.reconcileDelay)
                record.nextAttemptAt = at
                record.phase = .unknown
                return .reconcile(at: at)
            }
            if ambiguity.idempotency == .notRetried { return stop(.ambiguousOutcome, &record) }
        }
        return scheduleRetry(c, record: &record, host: &host, now: now, random: &random)
    }

    /// Attempts (or cool-off) → delay → elapsed time → budget.
    @inlinable @inline(__always) func scheduleRetry<R: UniformSource & ~Copyable>(
        _ c: FailureClass, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) -> RetryDecision {
        if record.cycleFailures >= Int32(clamping: maxAttempts) {
            guard let coolOff else { return stop(.attemptsExhausted, &record) }
            record.cycleFailures = 0
            record.backoffStep = 0
            record.backoffMemory = 0
            let at = Time.adding(now, coolOff)
            record.nextAttemptAt = at
            record.phase = .coolingOff
            return .retry(at: at)
        }
        record.backoffStep &+= 1
        let computed = schedule(for: c).delay(retry: Int(record.backoffStep), memory: &record.backoffMemory, random: &random)
        let (delay, reset) = serverHints.combine(backoff: computed, hint: c.serverHint)
        if reset {
            record.backoffStep = 0
            record.backoffMemory = 0
        }
        let at = Time.adding(now, delay)
        if let maxElapsed, let first = record.firstAttemptAt, at &- first > maxElapsed {
            return stop(.elapsedExceeded, &record)
        }
        let active = Int64(host.inFlight) &+ Int64(host.waiting)
        guard host.budget.tryAcquire(budget, failure: c, record: &record, active: active, now: now) else {
            return stop(.budgetExhausted, &record)
        }
        record.nextAttemptAt = at
        record.phase = c.ambiguous ? .unknown : .willRetry
        return .retry(at: at)
    }

    /// Ends the attempt in flight on the host; false if none was in flight.
    @inlinable @inline(__always) func endAttempt(_ record: inout OperationRecord, _ host: inout HostGuard) -> Bool {
        guard case .inFlight = record.phase else { return false }
        host.inFlight &-= 1
        host.budget.release(budget, record: &record)
        return true
    }

    @inlinable @inline(__always) func stop(_ reason: StopReason, _ record: inout OperationRecord) -> RetryDecision {
        record.nextAttemptAt = nil
        record.phase = .stopped(reason)
        return .stop(reason)
    }

    @inlinable static func reasonNotRetryable(_ c: FailureClass) -> StopReason {
        switch c.kind {
        case .overloaded: .serverSaidStop
        case .localResource: c.userActionRequired ? .needsResource : .nonRetryable
        case .authExpired: .needsSignIn
        default: c.userActionRequired ? .needsFix : .nonRetryable
        }
    }
}
