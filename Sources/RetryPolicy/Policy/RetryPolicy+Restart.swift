/// An app restart: what survives of the schedule, by ``RetryPolicy/onRestart``.
extension RetryPolicy {
    /// Applies ``onRestart`` to a persisted operation record and returns when it is due.
    ///
    /// - `keep`: the record stays (attempt count, `nextAttemptAt`, backoff step); an attempt that
    ///   was in flight when the app died has an unknown outcome, so the operation is marked
    ///   ambiguous and due now.
    /// - `reset`: a fresh record in the same lane, due now — every operation starts over.
    ///
    /// - Returns: the instant the operation should next be admitted; nil if it had finished.
    public func restart(record: inout OperationRecord, now: Nanoseconds) -> Nanoseconds? {
        if record.isFinished { return nil }
        switch onRestart {
        case .keep:
            return record.restartKeepingSchedule(now: now)
        case .reset:
            record = OperationRecord(lane: record.lane)
            return now
        }
    }

    /// Applies ``onRestart`` to a client's host state. Nothing is in flight or waiting after a
    /// restart (half-open probes that were out may go again), and a per-run budget starts a new
    /// run either way; `keep` keeps the rest (quota, breaker, throttle), `reset` starts from scratch.
    public func restart(host: inout HostGuard) {
        switch onRestart {
        case .keep:
            host.inFlight = 0
            host.waitingUserInitiated = 0
            host.waitingBackground = 0
            host.breaker.forgetProbesInFlight()
            switch budget {
            case .perRun, .envoy: host.budget = RetryBudgetState(budget)
            default: break
            }
        case .reset:
            host = HostGuard(policy: self)
        }
    }
}
