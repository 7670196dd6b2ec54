import RetryPolicy

/// How a guard's refusal is counted, the same for a client's operation and a call on an edge
/// (each host's ``AttemptHost/attemptRefused(_:_:_:)``): written once so that the two cannot
/// drift apart (issue 39 found the edges counting no refused retry).
extension Recorder {
    /// A guard refused an attempt for `reason` before it went out (`retry`: not the operation's
    /// first): the budget's refusal is `budgetDenied` alone, any other guard's `heldBack`, and a
    /// refused retry also counts in ``retriesRefused`` after the warmup. Returns whether it was a
    /// refused retry (the caller's populations count it too).
    @discardableResult
    @inline(__always) mutating func attemptRefused(_ reason: StopReason, retry: Bool, _ now: Moment) -> Bool {
        count(reason == .budgetExhausted ? .budgetDenied : .heldBack, now)
        let refusedRetry = retry && reason.refusesRetry
        if refusedRetry && now.time >= warmupEnd { retriesRefused &+= 1 }
        return refusedRetry
    }

    /// The retry budget refused the retry a failed attempt asked for (the policy stopped with
    /// ``StopReason/budgetExhausted`` after the failure): `budgetDenied`, and a refused retry.
    @inline(__always) mutating func retryRefusedByBudget(_ now: Moment) {
        count(.budgetDenied, now)
        if now.time >= warmupEnd { retriesRefused &+= 1 }
    }
}
