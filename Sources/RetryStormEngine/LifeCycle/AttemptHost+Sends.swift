import GSLSupport
import RetryPolicy

/// Sends: an operation's next attempt or status query, once it is due.
extension AttemptHost where Self: ~Copyable {
    /// `op`'s next send is due now and it waits for no answer: a status query, the end of the
    /// operation at its deadline, or an attempt.
    @inline(__always) mutating func sendDue<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        if sendIsUnusual(op, loop) {
            sendOther(op, now, lent, loop)
        } else {
            startAttempt(op, now, lent, loop)
        }
    }

    /// A send that is not a plain attempt: one at or after the operation's deadline (no attempt
    /// starts there: the operation ends, given up), or a status query. Out of line, so that the
    /// attempt path the storm runs through stays small enough to inline (the compiler honours
    /// `@inline(__always)` only into callers of under 64 blocks, or for callees of at most 64).
    @inline(never) mutating func sendOther<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        if sendIsPastDeadline(op, now) {
            endOperation(op, reason: .elapsedExceeded, now)
        } else if isReconciling(op) {
            sendQuery(op, now, lent, loop)
        } else {
            startAttempt(op, now, lent, loop)
        }
    }

    /// Starts `op`'s next attempt now, unless its policy makes it wait or refuses it.
    @inline(__always) mutating func startAttempt<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        let g = hostGuard(of: op)
        let admission = withPolicy(op, guard: g, lent, loop) { policy, record, host, random in
            policy.admit(record: &record, host: &host, now: now.time, random: &random)
        }
        switch admission {
        case .proceed:
            launch(op, guard: g, now, lent, loop)
        case .wait(let until):
            holdBack(op, until: until, guard: g, now, loop)
        case .waitForSlot:
            holdBack(op, until: nil, guard: g, now, loop)
        case .reject(let reason):
            refuse(op, reason, now)
        }
    }

    /// `op`'s next attempt, admitted by its policy against host guard `g`, goes out now: a plain
    /// attempt, or a hedged copy (`copy`: one after the first, ``followWant(_:_:afterFailure:_:_:_:)``).
    /// A hedged attempt's first copy starts its copies (``startsCopies(_:first:_:_:)``); every
    /// copy arms the next copy's timer before it goes on the wire.
    @inline(__always) mutating func launch<C: LoopKind>(
        _ op: UInt32, guard g: Int, copy: Bool = false, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type
    ) {
        let isRetry = hasAttempted(op)
        withPolicy(op, guard: g, lent, loop) { policy, record, host, _ in policy.attemptStarted(record: &record, host: &host, now: now.time) }
        count(isRetry ? .retry : .firstAttempt, op, now)
        let generation = beginSend(op, query: false)
        // Nested, not `&&`: its right side is a closure, which would consume the borrowed `lent`.
        if C.general {
            if startsCopies(op, first: !copy, lent, loop) { copySent(op, generation, now, lent, loop) }
        }
        send(op, generation, query: false, now, lent, loop)
    }

    /// Sends a status query for `op` (its policy reconciles an ambiguous failure): the server
    /// answers whether it applied one of the operation's writes. Out of line: queries are rare.
    @inline(never) mutating func sendQuery<C: LoopKind>(_ op: UInt32, _ now: Instant, _ lent: borrowing Lent, _ loop: C.Type) {
        count(.query, op, now)
        let generation = beginSend(op, query: true)
        send(op, generation, query: true, now, lent, loop)
    }

    /// The policy holds `op`'s next attempt back: until `until`, or until a concurrency slot of
    /// its host guard `g` frees (`until` nil). Under a deadline, the send tests it, and a wait
    /// ends at it. Out of line, as ``refuse(_:_:_:)``.
    @inline(never) mutating func holdBack<C: LoopKind>(_ op: UInt32, until: Int64?, guard g: Int, _ now: Instant, _ loop: C.Type) {
        count(.heldBack, op, now)
        var until = until
        if C.general && hasDeadlines {
            checkDeadlineAtSend(op)
            until = until.map { min($0, deadline(of: op)) }
        }
        if let until {
            scheduleSend(op, at: until)
        } else {
            park(op, guard: g)
        }
    }

    /// The policy refused `op`'s next attempt before it was sent: the operation ends. Out of
    /// line, so that the attempt path stays small enough to inline.
    @inline(never) mutating func refuse(_ op: UInt32, _ reason: StopReason, _ now: Instant) {
        attemptRefused(op, reason, now)
        endOperation(op, reason: reason, now)
    }
}
