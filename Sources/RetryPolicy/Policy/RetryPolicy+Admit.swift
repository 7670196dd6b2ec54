/// Before an attempt: the concurrency limit, the breaker and the throttle, in that order. Only
/// the answer `.proceed` commits anything that takes a share (a half-open probe); a refused
/// attempt takes none.
extension RetryPolicy {
    /// Whether an attempt of the operation may start now. Call before every attempt, the first
    /// included, and again whenever the answer said to wait.
    ///
    /// - `.proceed`: call ``attemptStarted(record:host:now:)`` and send it.
    /// - `.wait(until:)`: ask again at that instant (`record.nextAttemptAt` holds it).
    /// - `.waitForSlot`: ask again when an attempt of this host ends.
    /// - `.reject(reason)`: the operation has stopped (`record.phase` is `.stopped(reason)`).
    ///
    /// Draws a random value only for the adaptive throttle (when its probability is above 0) and
    /// for the backoff of an attempt the breaker fails (``CircuitBreaker/WhenOpen/failAttempt``),
    /// which is retried no sooner than ``CircuitBreakerState/minimumWait`` later.
    @inlinable @inline(__always) public func admit<R: UniformSource & ~Copyable>(
        record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds, random: inout R
    ) -> Admission {
        if record.waitingForSlot {
            host.leaveSlotQueue(record.lane)
            record.waitingForSlot = false
        }
        if let concurrency, !host.hasSlot(concurrency, lane: record.lane) {
            if concurrency.whenFull == .reject { return reject(.concurrencyLimited, &record) }
            host.joinSlotQueue(record.lane)
            record.waitingForSlot = true
            return .waitForSlot
        }
        var probe = false
        if hasBreaker {
            switch host.breaker.check(breakerConfig, now: now) {
            case .pass:
                break
            case .probe:
                probe = true
            case .blocked(let until):
                switch breakerConfig.whenOpen {
                case .wait:
                    record.nextAttemptAt = until
                    return .wait(until: until)
                case .reject:
                    return reject(.circuitOpen, &record)
                case .failAttempt:
                    let refused = FailureClass(kind: .circuitOpen, retryable: true)
                    switch afterFailure(refused, serverSaidStop: false, record: &record, host: &host, now: now, random: &random) {
                    case .retry(let at), .refreshCredentials(let at), .reconcile(let at):
                        let until = Swift.max(at, Time.adding(now, CircuitBreakerState.minimumWait))
                        record.nextAttemptAt = until
                        return .wait(until: until)
                    case .stop(let reason): return .reject(reason)
                    case .confirmed: return .proceed
                    }
                }
            }
        }
        if let throttle, host.throttle.reject(throttle, now: now, random: &random) {
            return reject(.throttledLocally, &record)
        }
        if probe { host.breaker.admitProbe(now: now) }
        return .proceed
    }

    /// Records that an attempt starts now (after `.proceed`).
    @inlinable @inline(__always) public func attemptStarted(record: inout OperationRecord, host: inout HostGuard, now: Nanoseconds) {
        record.attemptCount &+= 1
        if record.firstAttemptAt == nil { record.firstAttemptAt = now }
        record.lastAttemptAt = now
        record.nextAttemptAt = nil
        record.phase = .inFlight
        record.breakerEpoch = host.breaker.epoch
        host.inFlight &+= 1
        if record.attemptCount == 1 { host.budget.requestStarted(budget, record: &record, now: now) }
    }

    @inlinable @inline(__always) func reject(_ reason: StopReason, _ record: inout OperationRecord) -> Admission {
        _ = stop(reason, &record)
        return .reject(reason)
    }
}
