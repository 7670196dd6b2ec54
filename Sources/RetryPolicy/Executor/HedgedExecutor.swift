/// Runs `operation` under `host`'s policy with hedging (``RetryPolicy/hedging``): while no copy
/// has answered, another copy of the attempt starts every ``Hedging/delay`` (at most
/// ``Hedging/maxAttempts`` at once), a failure the policy retries starts the next copy at once,
/// and the first success is returned, the other copies cancelled (their tasks see
/// `Task.isCancelled`). The same state machines the simulator drives for `policy.hedge.*`. A policy
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
///   copy refused with none out); `CancellationError` when the task is cancelled.
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
        // When each copy went out (by copy index), the copies out, and the copy the pending timer is for.
        var sentAt: [Nanoseconds] = []
        var live = Set<Int>()
        var timerFor = -1
        var lastError: (any Error)?

        /// Starts the copy `record` has just counted, and the timer for the next.
        func send() async {
            let k = sentAt.count
            sentAt.append(host.now())
            live.insert(k)
            let attempt = Attempt(number: Int(record.attemptCount), previousFailure: record.lastErrorClass, sendsIdempotencyKey: keys)
            group.addTask {
                do { return .answered(k, .success(try await operation(attempt))) } catch { return .answered(k, .failure(error)) }
            }
            await startTimer(refused: false)
        }

        /// Sleeps until the next copy is due, if one more may go out and a delay is known (after a
        /// refusal, one delay from now; never again at once).
        func startTimer(refused: Bool) async {
            guard let delay = await host.hedgeDelay(), !(refused && delay == 0),
                let due = policy.nextCopyAt(record: record, delay: delay)
            else { return }
            let at = host.instant(max(due, Time.adding(host.now(), refused ? delay : 0)))
            let index = sentAt.count
            timerFor = index
            group.addTask {
                do { try await host.clock.sleep(until: at, tolerance: nil) } catch { return .timerCancelled }
                return .due(index)
            }
        }

        /// One more copy if the policy admits it; refused with none out, the operation stops.
        func sendNext(afterFailure: Bool) async throws {
            if let reason = await host.admitCopy(&record, random: &random, afterFailure: afterFailure) {
                guard live.isEmpty else {
                    if !afterFailure { await startTimer(refused: true) }
                    return
                }
                _ = record.stop(reason)
                throw RetryStopped(reason: reason, lastError: lastError, record: record)
            }
            await host.attemptStarted(&record)
            await send()
        }

        do {
            await send()
            while let outcome = try await group.next() {
                switch outcome {
                case .answered(let k, .success(let value)):
                    live.remove(k)
                    let now = host.now()
                    await host.copySucceeded(
                        latency: now - sentAt[k], outrun: live.map { now - sentAt[$0] }, &record, random: &random)
                    group.cancelAll()
                    return value
                case .answered(let k, .failure(let error)):
                    // Cancelled: copy k is still the host's to free (``RetryHost/copiesCancelled(_:_:)``).
                    if error is CancellationError || Task.isCancelled { throw CancellationError() }
                    live.remove(k)
                    lastError = error
                    let normalized = normalizer.normalize(error)
                    let timedOut = normalized.timeout == nil ? nil : host.now() - sentAt[k]
                    switch await host.copyFailed(
                        normalized, othersInFlight: Int32(live.count), timedOutAfter: timedOut, &record, random: &random)
                    {
                    case .sendNow: try await sendNext(afterFailure: true)
                    case .wait: break
                    case .stop(let reason): throw RetryStopped(reason: reason, lastError: error, record: record)
                    }
                case .due(let index):
                    // A newer copy went out since this timer started: it has a timer of its own.
                    if index == timerFor && index == sentAt.count { try await sendNext(afterFailure: false) }
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
                await host.copiesCancelled(Int32(live.count), &record)
                throw CancellationError()
            }
            throw error
        }
    }
}

/// What a child task of ``hedging(host:record:random:normalizer:operation:)`` reports.
enum HedgedOutcome<T: Sendable>: Sendable {
    /// Copy k answered.
    case answered(Int, Result<T, any Error>)
    /// The timer for copy k (the next) went off.
    case due(Int)
    /// A timer was cancelled (the operation ended).
    case timerCancelled
}
