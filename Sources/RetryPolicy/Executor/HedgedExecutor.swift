/// Runs `operation` under `host`'s policy with hedging (``RetryPolicy/hedging``): while no copy
/// has answered, another copy of the attempt starts every ``Hedging/delay`` (at most
/// ``Hedging/maxAttempts`` at once), a failure the policy retries starts the next copy at once,
/// and the first success is returned, the other copies cancelled (their tasks see
/// `Task.isCancelled`). A copy the policy's guards refuse (budget, throttle, breaker, concurrency
/// limit) freezes hedging: no copy is asked for again, the copies out go on, and when none is
/// left the operation stops for the refusal's reason, as the simulator and gRPC's
/// `RetriableStream` do. The same state machines the simulator drives for `policy.hedge.*`,
/// the copies' bookkeeping included (``HedgedAttempt``: copy k carries generation k). A policy
/// without hedging runs as ``retrying(host:record:random:normalizer:refreshCredentials:reconcile:isolation:operation:)``.
///
/// `operation` may run several times at once, so it is `@Sendable` and must be safe to repeat:
/// hedge idempotent requests only (gRPC and Finagle do).
///
/// ```swift
/// var policy = RetryPolicy.grpc
/// policy.hedging = Hedging(delay: .percentile(0.95, window: 30_000_000_000), maxAttempts: 3)
/// let host = RetryHost(policy: policy, clock: ContinuousClock())
/// var record = OperationRecord()
/// var random = SystemUniformSource()
/// let user = try await hedging(host: host, record: &record, random: &random) { _ in
///     try await api.fetchUser(id)
/// }
/// ```
///
/// - Throws: ``RetryStopped`` when the policy stops (a fatal failure, the last copy's failure, a
///   copy refused with none out, or the last copy out failing after hedging froze: the refusal's reason); `CancellationError` when the task is cancelled.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public func hedging<T: Sendable, C: Clock, R: UniformSource & Sendable>(
    host: RetryHost<C>,
    record: inout OperationRecord,
    random: inout R,
    normalizer: some ErrorNormalizer = DefaultErrorNormalizer(),
    operation: @escaping @Sendable (Attempt) async throws -> T
) async throws -> T where C.Duration == Duration {
    let policy = host.policy
    guard policy.hedging != nil else {
        return try await retrying(host: host, record: &record, random: &random, normalizer: normalizer, isolation: nil, operation: operation)
    }
    var woken = false
    do {
        try await admitted(host: host, record: &record, random: &random, woken: &woken, lastError: nil)
    } catch is CancellationError {
        await host.cancelled(&record, woken: woken)
        throw CancellationError()
    }
    await host.attemptStarted(&record)
    let keys = policy.ambiguity.idempotency == .key
    return try await withThrowingTaskGroup(of: HedgedOutcome<T>.self) { group in
        // The copies' bookkeeping, as the simulator keeps it; copy k's generation is k.
        var copies = HedgedAttempt(base: 0)
        var lastError: (any Error)?

        /// Starts the copy `record` has just counted, and the timer for the next.
        func send() async {
            let k = UInt32(copies.sent)
            let action = copies.sent(generation: k, at: host.now())
            let attempt = Attempt(number: Int(record.attemptCount), previousFailure: record.lastErrorClass, sendsIdempotencyKey: keys)
            group.addTask {
                do { return .answered(k, .success(try await operation(attempt))) } catch { return .answered(k, .failure(error)) }
            }
            switch action {
            case .armTimer(let generation): await startTimer(generation)
            }
        }

        /// Sleeps until the next copy is due, if one more may go out and a delay is known; the
        /// timer carries the latest copy's `generation`, so that a newer copy makes it stale.
        func startTimer(_ generation: UInt32) async {
            guard let delay = await host.hedgeDelay(), let due = policy.nextCopyAt(record: record, delay: delay) else { return }
            let at = host.instant(max(due, Time.adding(host.now(), delay)))
            group.addTask {
                do { try await host.clock.sleep(until: at, tolerance: nil) } catch { return .timerCancelled }
                return .due(generation)
            }
        }

        /// Applies what the copies' bookkeeping said of one more copy: sent if the policy admits
        /// it; a refusal freezes hedging, and with no copy out (or none wanted) the operation stops.
        func follow(_ want: HedgedAttempt.WantAction, afterFailure: Bool) async throws {
            switch want {
            case .stale:
                return
            case .notWanted(let then), .notNeeded(let then):
                try stop(then)
            case .admit:
                if let reason = await host.admitCopy(&record, random: &random, afterFailure: afterFailure) {
                    try stop(copies.refused(reason))
                    return
                }
                await host.attemptStarted(&record)
                await send()
            }
        }

        /// Throws ``RetryStopped`` if no copy is out (`then` ends the attempt).
        func stop(_ then: HedgedAttempt.Then) throws {
            guard case .end(let reason) = then else { return }
            _ = record.stop(reason)
            throw RetryStopped(reason: reason, lastError: lastError, record: record)
        }

        do {
            await send()
            while let outcome = try await group.next() {
                switch outcome {
                case .answered(let k, .success(let value)):
                    guard case .won(let win) = copies.answered(generation: k, ok: true, at: host.now()) else { continue }
                    await host.copySucceeded(win, &record, random: &random)
                    group.cancelAll()
                    return value
                case .answered(let k, .failure(let error)):
                    // Cancelled: copy k is still the host's to free (``RetryHost/copiesCancelled(_:_:)``).
                    if error is CancellationError || Task.isCancelled { throw CancellationError() }
                    lastError = error
                    let normalized = normalizer.normalize(error)
                    let now = host.now()
                    let timedOut = normalized.timeout != nil
                    let action = timedOut ? copies.timedOut(generation: k, at: now) : copies.answered(generation: k, ok: false, at: now)
                    guard case .failed(_, let others, let outFor) = action else { continue }
                    switch await host.copyFailed(normalized, othersInFlight: others, timedOutAfter: timedOut ? outFor : nil, &record, random: &random)
                    {
                    case .sendNow: try await follow(copies.wantCopy(at: host.now(), deadline: .max), afterFailure: true)
                    case .wait: break
                    case .stop(let reason):
                        _ = copies.abandonAll()
                        throw RetryStopped(reason: reason, lastError: error, record: record)
                    }
                case .due(let generation):
                    try await follow(copies.delayElapsed(generation: generation, at: host.now(), deadline: .max), afterFailure: false)
                case .timerCancelled:
                    break
                }
            }
            // Every copy and timer ended without a decision: only a policy whose copyFailed waits
            // with nothing out gets here.
            _ = record.stop(.attemptsExhausted)
            throw RetryStopped(reason: .attemptsExhausted, lastError: lastError, record: record)
        } catch {
            group.cancelAll()
            if error is CancellationError {
                let out = copies.copiesOut.count
                _ = copies.abandonAll()
                await host.copiesCancelled(Int32(out), &record)
                throw CancellationError()
            }
            throw error
        }
    }
}

/// What a child task of ``hedging(host:record:random:normalizer:operation:)`` reports.
enum HedgedOutcome<T: Sendable>: Sendable {
    /// The copy carrying generation k (copy k) answered.
    case answered(UInt32, Result<T, any Error>)
    /// The next-copy timer armed with this generation (the latest copy's then) went off.
    case due(UInt32)
    /// A timer was cancelled (the operation ended).
    case timerCancelled
}
