import GSLSupport
import RetryPolicy

/// Hedged operations (a policy with ``ClientPolicy/hedging``): copies of the attempt go out while
/// none has answered. The copies' bookkeeping is one ``HedgedAttempt`` per operation
/// (``AttemptHost/withHedge(_:_:)``), the same state machine an app's `hedging(host:)` executor
/// runs; these handlers apply its actions, written once for the clients and for the calls of a
/// call graph.
///
/// The first copy is the operation's first attempt (``launch(_:guard:copy:_:_:_:)``); each later
/// one is a retry, due one delay after the latest (``ClientPolicy/nextCopyAt(record:delay:)``) or
/// at once after a failure the policy retries, and sent if
/// ``ClientPolicy/admitCopy(record:host:now:random:afterFailure:)`` allows it. Copy k carries the
/// operation's generation `base + k`; the next-copy timer is a send with the latest copy's
/// generation, so a newer copy makes it stale (the delay restarts, as gRPC's does), and it is
/// armed before the copy goes on the wire. Each copy wanted is counted once and is exactly one of
/// sent, refused or not needed. The first success ends the operation: the copies still out are
/// abandoned (counted so, for the attempts' conservation law) and cancelled where they wait
/// (``AttemptHost/copiesAbandoned(_:_:base:cancel:_:)``).
///
/// Runs in the general loop only (``GeneralLoop``): the lean loop has no trace of it.
extension AttemptHost where Self: ~Copyable {
    /// `op`'s copy `generation` has just begun (``beginSend(_:query:)``) and goes on the wire
    /// next: its send time is kept and the next copy's delay starts.
    mutating func copySent<C: LoopKind>(_ op: UInt32, _ generation: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        switch withHedge(op, { $0.sent(generation: generation, at: now.time) }) {
        case .armTimer(let timer):
            // The timer carries the latest copy's generation, which is `op`'s current one.
            _internalInvariant(timer == generation, "a copy's timer armed with \(timer), not its generation \(generation)")
            scheduleNextCopy(op, now, lent, loop)
        }
    }

    /// Schedules `op`'s next copy one delay from now, if its policy allows one more and a delay is
    /// known (a percentile needs latencies first), before the horizon and the operation's deadline.
    mutating func scheduleNextCopy<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        let g = hostGuard(of: op)
        guard let hedging = withPolicy(op, guard: g, lent, loop, { policy, _, _, _ in policy.hedging }),
            let delay = withLatencies(op, { hedging.currentDelay(latencies: &$0, now: now.time) }),
            let due = withPolicy(op, guard: g, lent, loop, { policy, record, _, _ in policy.nextCopyAt(record: record, delay: delay) })
        else { return }
        let at = max(due, Time.adding(now.time, delay))
        if at < copiesDeadline(op) { scheduleSend(op, at: at) }
    }

    /// `op`'s operation deadline, nanoseconds (`Int64.max` without one).
    func copiesDeadline(_ op: UInt32) -> Int64 { hasDeadlines ? deadline(of: op) : .max }

    /// `op`'s next-copy timer went off while copies are out: one more copy, if it is still wanted.
    @inline(never) mutating func copyDue<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        let generation = currentGeneration(of: op)
        let deadline = copiesDeadline(op)
        let want = withHedge(op, { $0.delayElapsed(generation: generation, at: now.time, deadline: deadline) })
        followWant(want, op, afterFailure: false, now, lent, loop)
    }

    /// One more copy of `op` now, after a copy failed and the policy said ``HedgeDecision/sendNow``.
    mutating func sendCopy<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        let deadline = copiesDeadline(op)
        let want = withHedge(op, { $0.wantCopy(at: now.time, deadline: deadline) })
        followWant(want, op, afterFailure: true, now, lent, loop)
    }

    /// Applies what ``HedgedAttempt`` said of `op`'s next copy: each wanted copy is counted once,
    /// and is exactly one of sent, refused or not needed (``Counter/hedgesWanted``).
    mutating func followWant<C: LoopKind>(
        _ want: HedgedAttempt.WantAction, _ op: UInt32, afterFailure: Bool, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type
    ) {
        switch want {
        case .stale:
            return
        case .notWanted(let then):
            if case .end(let reason) = then { stopHedged(op, reason, now, lent, loop) }
            return
        case .notNeeded(let then):
            copyWanted(op, now, lent, loop)
            count(.copyNotNeeded, op, now)
            if case .end(let reason) = then { stopHedged(op, reason, now, lent, loop) }
            return
        case .admit:
            copyWanted(op, now, lent, loop)
        }
        let g = hostGuard(of: op)
        let refusal = withPolicy(op, guard: g, lent, loop) { policy, record, host, random in
            policy.admitCopy(record: &record, host: &host, now: now.time, random: &random, afterFailure: afterFailure)
        }
        if let reason = refusal {
            // A refused copy is a refused retry: counted as a refusal, once, by the guard's reason.
            let then = withHedge(op, { $0.refused(reason) })
            count(.copyRefused, op, now)
            attemptRefused(op, reason, now)
            if case .end(let reason) = then { stopHedged(op, reason, now, lent, loop) }
            return
        }
        count(.copySent, op, now)
        launch(op, guard: g, copy: true, now, lent, loop)
    }

    /// `op`'s policy wants one more copy: counted, and checked to be at most
    /// `hedge.max_attempts − 1` (and ``Hedging/maxCopies`` − 1) per attempt.
    mutating func copyWanted<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        count(.copyWanted, op, now)
        let wanted = withHedge(op, { $0.wanted })
        let allowed = withPolicy(op, guard: hostGuard(of: op), lent, loop, { policy, _, _, _ in policy.hedging?.maxAttempts }) ?? 1
        let most = min(allowed, Hedging.maxCopies) - 1
        if wanted > most { lawBroken("operation \(op) wanted copy \(wanted) of at most \(most)") }
    }

    /// The answer `code` to `op`'s copy `generation`. Returns false if that copy is not out
    /// (outrun, timed out, or of an operation that ended): the host counts its work as wasted,
    /// where the answer came from.
    @inline(never) mutating func copyAnswered<C: LoopKind>(
        _ op: UInt32, _ generation: UInt32, _ code: ResponseCode, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type
    ) -> Bool {
        switch withHedge(op, { $0.answered(generation: generation, ok: code == .ok, at: now.time) }) {
        case .stale:
            return false
        case .won(let win):
            sendEnded(op, query: false)
            count(.succeeded, op, now)
            withLatencies(op) { if $0 != nil { win.record(into: &$0!) } }
            let g = hostGuard(of: op)
            let others = Int32(win.outrun.count)
            withPolicy(op, guard: g, lent, loop) { policy, record, host, random in
                policy.copySucceeded(othersInFlight: others, record: &record, host: &host, now: now.time, random: &random)
            }
            copiesAbandoned(op, win.outrun, base: win.base, cancel: true, now)
            operationSucceeded(op, guard: g, now, lent, loop)
        case .failed(_, let others, _):
            sendEnded(op, query: false)
            copyFailed(op, failure(code, op, now), others, now, lent, loop)
        }
        return true
    }

    /// `op`'s copy `generation` timed out: `op` lets it go (``letGo(_:copy:_:)``), its time out
    /// counts in the latency window, and the policy decides.
    @inline(never) mutating func copyTimedOut<C: LoopKind>(_ op: UInt32, _ generation: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type)
    {
        guard case .failed(let copy, let others, let outFor) = withHedge(op, { $0.timedOut(generation: generation, at: now.time) }) else { return }
        letGo(op, copy: copy, now)
        sendEnded(op, query: false)
        count(.timedOut, op, now)
        withLatencies(op) { $0?.record(outFor, now: now.time) }
        copyFailed(op, .timedOut(.response), others, now, lent, loop)
    }

    /// One of `op`'s copies failed with `error`, `others` still out: the policy decides, and the
    /// copy's concurrency slot frees.
    mutating func copyFailed<C: LoopKind>(
        _ op: UInt32, _ error: NormalizedError, _ others: Int32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type
    ) {
        if others == 0 { setAwaiting(op, false) }
        let g = hostGuard(of: op)
        let decision = withPolicy(op, guard: g, lent, loop) { policy, record, host, random in
            policy.copyFailed(after: error, othersInFlight: others, record: &record, host: &host, now: now.time, random: &random)
        }
        switch decision {
        case .sendNow:
            sendCopy(op, now, lent, loop)
        case .wait:
            break
        case .stop(let reason):
            if reason == .budgetExhausted && withHedge(op, { $0.frozen == nil }),
                case .admit = withHedge(op, { $0.wantCopy(at: now.time, deadline: .max) })
            {
                // A caller's policy whose `copyFailed` spends the budget (RetryPolicy's refuses
                // copies in `admitCopy` instead): the copy it wanted was refused.
                copyWanted(op, now, lent, loop)
                _ = withHedge(op, { $0.refused(reason) })
                count(.copyRefused, op, now)
                attemptRefused(op, reason, now)
            }
            abandonCopies(op, now)
            endOperation(op, reason: reason, now)
        }
        wake(g, now, lent, loop)
    }

    /// `op` ends for `reason` with no copy out and none to send (its record stopped here).
    mutating func stopHedged<C: LoopKind>(_ op: UInt32, _ reason: StopReason, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        setAwaiting(op, false)
        withPolicy(op, guard: hostGuard(of: op), lent, loop) { _, record, _, _ in _ = record.stop(reason) }
        endOperation(op, reason: reason, now)
    }

    /// `op` gives up on its copies still out (``HedgedAttempt/abandonAll()``): each is abandoned,
    /// and cancelled where it waits if `cancel` (an app that restarts cancels nothing). An
    /// operation with no copy out abandons none.
    mutating func abandonCopies(_ op: UInt32, _ now: Instant, cancel: Bool = true) {
        setAwaiting(op, false)
        guard case .cancel(let copies, let base) = withHedge(op, { $0.abandonAll() }) else { return }
        copiesAbandoned(op, copies, base: base, cancel: cancel, now)
    }
}
