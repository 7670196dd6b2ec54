/// Hedged operations (``RetryPolicy/hedging``): copies of the attempt go out while none has
/// answered, instead of retries after failures.
///
/// The first copy is an attempt as any other: ``admit(record:host:now:random:)``, then
/// ``attemptStarted(record:host:now:)``. Every later copy is due at ``nextCopyAt(record:delay:)``
/// (or at once after a failure, ``HedgeDecision/sendNow``), asks
/// ``admitCopy(record:host:now:random:afterFailure:)`` and, admitted, starts with
/// ``attemptStarted(record:host:now:)`` too, so ``OperationRecord/attemptCount`` counts copies.
/// Each copy's outcome comes back through ``copySucceeded(othersInFlight:record:host:now:random:)``
/// or ``copyFailed(after:othersInFlight:record:host:now:random:)``. The caller counts its copies
/// in flight (`othersInFlight`) and cancels them when the operation ends; the record stays
/// ``OperationRecord/Phase/inFlight`` while any copy is out.
///
/// Hedging is for idempotent requests (gRPC and Finagle hedge those only): an ambiguous failure
/// is a failure like another here, and ``maxAttempts``, the backoff and ``coolOff`` do not apply
/// (``Hedging/maxAttempts`` copies are the attempts).
extension RetryPolicy {
    /// Whether one more copy may go out now: the concurrency limit (a full host sends no copy;
    /// it does not wait for a slot), the breaker, the throttle, then the retry budget, which a
    /// copy spends as a retry (gRPC sends a hedge only while its throttle's tokens are above
    /// the threshold; Finagle's backup requests withdraw from its retry budget).
    ///
    /// - Parameter afterFailure: the copy replaces one that failed (the budget is charged for
    ///   ``OperationRecord/lastErrorClass``); false for a copy whose delay came, which is
    ///   charged as a timeout (AWS's quota charges timeouts more).
    /// - Returns: nil: send it, after ``attemptStarted(record:host:now:)``. Otherwise why not: the
    ///   copy is not sent and the copies out go on; with none out, the operation has failed:
    ///   end it with ``OperationRecord/stop(_:)``.
    @inlinable public func admitCopy<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R, afterFailure: Bool
    ) -> StopReason? {
        if let concurrency, !host.hasSlot(concurrency, lane: record.lane) { return .concurrencyLimited }
        var probe = false
        if hasBreaker {
            switch host.breaker.check(breakerConfig, now: now) {
            case .pass: break
            case .probe: probe = true
            case .blocked: return .circuitOpen
            }
        }
        if let throttle, host.throttle.reject(throttle, now: now, random: &random) { return .throttledLocally }
        let kind = afterFailure ? (record.lastErrorClass ?? .timeout) : .timeout
        let c = FailureClass(kind: kind, retryable: true, isThrottling: kind == .throttled, isTimeout: kind == .timeout)
        let active = Int64(host.inFlight) &+ Int64(host.waiting)
        guard host.budget.tryAcquire(budget, failure: c, record: &record, active: active, now: now) else { return .budgetExhausted }
        if probe { host.breaker.admitProbe(now: now) }
        return nil
    }

    /// A copy succeeded: the operation is done, as ``succeeded(record:host:now:random:)``, and
    /// the `othersInFlight` copies still out are cancelled (their answers, if they come, are
    /// not the operation's).
    @inlinable public func copySucceeded<R: UniformSource & ~Copyable>(
        othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) {
        host.inFlight &-= othersInFlight
        succeeded(record: &record, host: &host, now: now, random: &random)
    }

    /// A copy failed, `othersInFlight` copies still out. Counts it as
    /// ``decide(after:record:host:now:random:)`` counts an attempt (breaker, throttle, gRPC's
    /// token), then: a failure the classifier does not retry (a fatal status, a server's "stop",
    /// expired credentials) stops the operation; otherwise the next copy goes out at once while
    /// fewer than ``Hedging/maxAttempts`` have, else the operation waits for the others, and
    /// fails (``StopReason/attemptsExhausted``) when the last has failed.
    @inlinable public func copyFailed<R: UniformSource & ~Copyable>(
        after failure: NormalizedError, othersInFlight: Int32, record: inout OperationRecord, host: inout HostGuard,
        now: Nanoseconds, random: inout R
    ) -> HedgeDecision {
        guard case .inFlight = record.phase else { return .wait }
        let c = classifier.classify(failure)
        let serverSaidStop = serverHints.negativeMeansStop && (c.serverHint ?? 0) < 0
        host.inFlight &-= 1
        if hasBreaker, !c.kind.isLocal {
            host.breaker.record(
                breakerConfig, failed: breakerConfig.records.contains(c.kind), epoch: record.breakerEpoch, now: now, random: &random)
        }
        if let throttle, AdaptiveThrottle.accepted(failure, c) { host.throttle.accepted(throttle, now: now) }
        host.budget.attemptFailed(budget, counts: c.retryable || serverSaidStop)
        record.lastErrorClass = c.kind
        record.cycleFailures &+= 1
        let fatal: StopReason? =
            serverSaidStop ? .serverSaidStop : c.requiresAuthRefresh ? .needsSignIn : c.retryable ? nil : Self.reasonNotRetryable(c)
        if fatal == nil, let hedging, record.attemptCount < Int32(hedging.maxAttempts) {
            if othersInFlight == 0 {
                host.budget.release(budget, record: &record)
                record.phase = .willRetry
                record.nextAttemptAt = now
            }
            return .sendNow
        }
        if fatal == nil && othersInFlight > 0 { return .wait }
        abandonCopies(othersInFlight, record: &record, host: &host)
        let reason = fatal ?? .attemptsExhausted
        _ = stop(reason, &record)
        return .stop(reason)
    }

    /// The caller gives up on a hedged operation's `inFlight` copies (its deadline passed, the
    /// app cancels it): they leave the host's count and the retry slots they held are free. The
    /// record's phase is the caller's to end (``OperationRecord/stop(_:)``).
    @inlinable public func abandonCopies(_ inFlight: Int32, record: inout OperationRecord, host: inout HostGuard) {
        host.inFlight &-= inFlight
        host.budget.release(budget, record: &record)
    }
}
