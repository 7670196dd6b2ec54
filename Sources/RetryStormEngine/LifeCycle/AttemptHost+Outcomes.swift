import GSLSupport
import RetryPolicy

/// What comes back of a send, and what the policy makes of it.
extension AttemptHost where Self: ~Copyable {
    /// The answer `code` to `op`'s send in flight, which `op` waits for (its host checked the
    /// generation, and counts a stale answer's work as wasted).
    @inline(__always) mutating func answered<C: LoopKind>(
        _ op: UInt32, _ code: ResponseCode, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type
    ) {
        setAwaiting(op, false)
        if isReconciling(op) {
            sendEnded(op, query: true)
            reconciled(op, code == .ok ? (hasApplied(op) ? .applied : .notApplied) : .unknown, now, lent, loop)
            return
        }
        sendEnded(op, query: false)
        if code == .ok {
            count(.succeeded, op, now)
            let g = hostGuard(of: op)
            withPolicy(op, guard: g, lent, loop) { policy, record, host, random in
                policy.succeeded(record: &record, host: &host, now: now.time, random: &random)
            }
            operationSucceeded(op, guard: g, now, lent, loop)
            return
        }
        failed(op, failure(code, op, now), now, lent, loop)
    }

    /// `op`'s send in flight, which `op` waits for, timed out: `op` lets it go (it goes on at the
    /// server), and its policy reads a timeout.
    @inline(__always) mutating func timedOut<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        setAwaiting(op, false)
        letGo(op, now)
        if isReconciling(op) {
            sendEnded(op, query: true)
            reconciled(op, .unknown, now, lent, loop)
            return
        }
        sendEnded(op, query: false)
        count(.timedOut, op, now)
        failed(op, .timedOut(.response), now, lent, loop)
    }

    /// `op`'s attempt failed with `error`: its policy decides what follows, and the attempt's
    /// concurrency slot frees.
    @inline(__always) mutating func failed<C: LoopKind>(
        _ op: UInt32, _ error: NormalizedError, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type
    ) {
        // Before the decision: an operation that ends frees its slot, which a new one may take.
        let g = hostGuard(of: op)
        let decision = withPolicy(op, guard: g, lent, loop) { policy, record, host, random in
            policy.decide(after: error, record: &record, host: &host, now: now.time, random: &random)
        }
        follow(decision, op, now, loop)
        wake(g, now, lent, loop)
    }

    /// The answer to `op`'s status query: its policy settles the ambiguous failure.
    mutating func reconciled<C: LoopKind>(
        _ op: UInt32, _ result: ReconcileResult, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type
    ) {
        setReconciling(op, false)
        let decision = withPolicy(op, guard: hostGuard(of: op), lent, loop) { policy, record, host, random in
            policy.reconciled(result, record: &record, host: &host, now: now.time, random: &random)
        }
        follow(decision, op, now, loop)
    }

    /// Does what `op`'s policy decided after a failure or a status query.
    @inline(__always) mutating func follow<C: LoopKind>(_ decision: RetryDecision, _ op: UInt32, _ now: Instant, _ loop: C.Type) {
        // Deadlines run in the general loop only (``LoopKind``): the lean loop has no trace of them.
        if C.general && hasDeadlines {
            followByDeadline(decision, op, now)
        } else {
            proceed(decision, op, now)
        }
    }

    /// ``follow(_:_:_:_:)`` under a deadline: a send the policy plans at or after the operation's
    /// deadline comes at the deadline and ends the operation there (``sendOther(_:_:_:_:)``): an
    /// operation fails when its deadline passes, not when a retry is planned, as a gRPC call
    /// does. Out of line: only runs with deadlines.
    @inline(never) mutating func followByDeadline(_ decision: RetryDecision, _ op: UInt32, _ now: Instant) {
        let end = deadline(of: op)
        let cut = decision.cut(to: end)
        if cut.sendsAt == end { checkDeadlineAtSend(op) }
        proceed(cut, op, now)
    }

    /// Does what the policy decided (the send times as they are).
    @inline(__always) mutating func proceed(_ decision: RetryDecision, _ op: UInt32, _ now: Instant) {
        switch decision {
        case .retry(let at):
            scheduleSend(op, at: at)
        case .refreshCredentials(let at):
            // The refresh completes before the retry.
            refreshCredentials(op, at: at)
            scheduleSend(op, at: at)
        case .reconcile(let at):
            setReconciling(op, true)
            scheduleSend(op, at: at)
        case .confirmed:
            confirmed(op, now)
        case .stop(let reason):
            if reason == .budgetExhausted { retryRefusedByBudget(op, now) }
            endOperation(op, reason: reason, now)
        }
    }
}
