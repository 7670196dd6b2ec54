/// Runs `operation` under `policy`, retrying as the policy decides, on `clock`'s time — the same
/// state machines the simulator drives.
///
/// ```swift
/// let user = try await retrying(.offlineFirst) { attempt in
///     try await api.fetchUser(id, idempotencyKey: attempt.sendsIdempotencyKey ? key : nil)
/// }
/// ```
///
/// Each call has its own host state (a budget or breaker then lasts one call); share a
/// ``RetryHost`` between calls to the same host with the `host:` variant. Errors map to
/// ``NormalizedError`` through ``NormalizedErrorConvertible``.
///
/// - Throws: nothing while the policy retries; when the policy stops,
///   ``RetryStopped``; when the task is cancelled, `CancellationError` (sleeps end at once).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public func retrying<T, C: Clock>(
    _ policy: RetryPolicy,
    clock: C = ContinuousClock(),
    isolation: isolated (any Actor)? = #isolation,
    operation: (Attempt) async throws -> T
) async throws -> T where C.Duration == Duration {
    var record = OperationRecord()
    var random = SystemUniformSource()
    return try await retrying(
        host: RetryHost(policy: policy, clock: clock), record: &record, random: &random,
        isolation: isolation, operation: operation)
}

/// Runs `operation` through a shared ``RetryHost``, with the operation's persisted `record` (so a
/// restarted app resumes its schedule) and an explicit random source (pass a fixed one in tests).
///
/// - Parameters:
///   - record: the operation's retry state, updated as it goes; persist it if it must survive.
///   - normalizer: maps what `operation` throws to a ``NormalizedError``.
///   - refreshCredentials: called on ``RetryDecision/refreshCredentials(retryAt:)`` (401/403)
///     before the retry.
///   - reconcile: called on ``RetryDecision/reconcile(at:)`` after an ambiguous failure: return
///     the operation's result if the server applied it, nil if it did not; a throw means
///     "unknown". Without it, reconciliation is skipped as if the write was not applied.
///
/// ```swift
/// let host = RetryHost(policy: .offlineFirst, clock: ContinuousClock())
/// var record = store.record(for: op.id) ?? OperationRecord(lane: .userInitiated)
/// var random = SystemUniformSource()
/// let result = try await retrying(
///     host: host, record: &record, random: &random,
///     refreshCredentials: { try await auth.refresh() },
///     reconcile: { _ in try await api.status(of: op) }
/// ) { attempt in
///     try await api.send(op, idempotencyKey: attempt.sendsIdempotencyKey ? op.id : nil)
/// }
/// ```
///
/// - Throws: ``RetryStopped`` when the policy stops (the record then says why), and
///   `CancellationError` when the task is cancelled (the record stops as ``StopReason/cancelled``).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public func retrying<T, C: Clock, R: UniformSource & Sendable>(
    host: RetryHost<C>,
    record: inout OperationRecord,
    random: inout R,
    normalizer: some ErrorNormalizer = DefaultErrorNormalizer(),
    refreshCredentials: (() async throws -> Void)? = nil,
    reconcile: ((Attempt) async throws -> T?)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    operation: (Attempt) async throws -> T
) async throws -> T where C.Duration == Duration {
    let policy = host.policy
    var lastError: (any Error)?
    // Woken for a concurrency slot and not yet admitted again: the host counts it as holding a slot.
    var woken = false
    do {
        while true {
            try await admitted(host: host, record: &record, random: &random, woken: &woken, lastError: lastError)
            await host.attemptStarted(&record)
            let attempt = Attempt(
                number: Int(record.attemptCount), previousFailure: record.lastErrorClass,
                sendsIdempotencyKey: policy.ambiguity.idempotency == .key)
            do {
                let value = try await operation(attempt)
                await host.succeeded(&record, random: &random)
                return value
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                lastError = error
                var decision = await host.decide(normalizer.normalize(error), &record, random: &random)
                while true {
                    switch decision {
                    case .retry(let at):
                        try await host.clock.sleep(until: host.instant(at), tolerance: nil)
                    case .refreshCredentials(let at):
                        try await refreshCredentials?()
                        try await host.clock.sleep(until: host.instant(at), tolerance: nil)
                    case .reconcile(let at):
                        try await host.clock.sleep(until: host.instant(at), tolerance: nil)
                        let result: ReconcileResult
                        var applied: T?
                        if let reconcile {
                            do {
                                applied = try await reconcile(attempt)
                                result = applied == nil ? .notApplied : .applied
                            } catch {
                                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                                result = .unknown
                            }
                        } else {
                            result = .notApplied
                        }
                        decision = await host.reconciled(result, &record, random: &random)
                        if case .confirmed = decision, let applied { return applied }
                        continue
                    case .confirmed:
                        // Only `reconciled(.applied)` confirms, and that returned above with the value.
                        throw RetryStopped(reason: .ambiguousOutcome, lastError: error, record: record)
                    case .stop(let reason):
                        throw RetryStopped(reason: reason, lastError: error, record: record)
                    }
                    break
                }
            }
        }
    } catch is CancellationError {
        await host.cancelled(&record, woken: woken)
        throw CancellationError()
    }
}

/// Returns once `host`'s policy admits the operation's next attempt, after sleeping as long as it
/// says (a time, or a concurrency slot: `woken` tells the next ``RetryHost/admit(_:random:woken:)``).
///
/// - Throws: ``RetryStopped`` when the policy refuses the attempt; `CancellationError`.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func admitted<C: Clock, R: UniformSource & Sendable>(
    host: RetryHost<C>, record: inout OperationRecord, random: inout R, woken: inout Bool, lastError: (any Error)?
) async throws where C.Duration == Duration {
    while true {
        try Task.checkCancellation()
        let admission = await host.admit(&record, random: &random, woken: woken)
        woken = false
        switch admission {
        case .proceed:
            return
        case .wait(let until):
            try await host.clock.sleep(until: host.instant(until), tolerance: nil)
        case .waitForSlot:
            woken = try await host.waitForSlot(lane: record.lane)
        case .reject(let reason):
            throw RetryStopped(reason: reason, lastError: lastError, record: record)
        }
    }
}
